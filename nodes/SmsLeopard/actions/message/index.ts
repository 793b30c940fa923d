import type { INodeProperties } from 'n8n-workflow';
import * as sendSms from './sendSms.operation';
import * as sendTemplate from './sendTemplate.operation';

export const operations = { sendSms, sendTemplate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['message'] } },
		options: [
			{
				name: 'Send SMS',
				value: 'sendSms',
				description: 'Send an SMS to the recipient of each item, many recipients per request',
				action: 'Send an SMS',
			},
			{
				name: 'Send Template',
				value: 'sendTemplate',
				description: 'Send an approved WhatsApp template to a recipient',
				action: 'Send a template message',
			},
		],
		default: 'sendTemplate',
	},
	...sendSms.description,
	...sendTemplate.description,
];
