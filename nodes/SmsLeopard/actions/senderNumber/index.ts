import type { INodeProperties } from 'n8n-workflow';
import * as getAll from './getAll.operation';

export const operations = { getAll };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['senderNumber'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				description: "Get the account's WhatsApp sender numbers",
				action: 'Get many sender numbers',
			},
		],
		default: 'getAll',
	},
	...getAll.description,
];
