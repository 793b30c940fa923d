import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';

export const operations = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['group'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many groups of the sub-account',
				action: 'Get many contact groups',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
