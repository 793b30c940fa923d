import type { INodeProperties } from 'n8n-workflow';
import * as sendTemplate from './sendTemplate.operation';

export const operations = { sendTemplate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send Template',
				value: 'sendTemplate',
				description: 'Send an approved WhatsApp template to a recipient',
				action: 'Send a template message',
			},
		],
		default: 'sendTemplate',
	},
	...sendTemplate.description,
];
