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
				description:
					"Whether a sent SMS was delivered (outcome: delivered, failed or pending), beside the carrier's code such as DELIVRD",
				action: 'Get the delivery report of an SMS',
			},
		],
		default: 'get',
	},
	...get.description,
];
