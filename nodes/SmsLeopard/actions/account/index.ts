import type { INodeProperties } from 'n8n-workflow';
import * as getBalance from './getBalance.operation';

export const operations = { getBalance };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Get Balance',
				value: 'getBalance',
				description: 'Get the SMS balance of the account and its currency',
				action: 'Get the SMS balance of the account',
			},
		],
		default: 'getBalance',
	},
	...getBalance.description,
];
