import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';

export const operations = { get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['deliveryReport'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get the delivery status of a sent SMS by its message ID',
				action: 'Get a delivery report',
			},
		],
		default: 'get',
	},
	...get.description,
];
