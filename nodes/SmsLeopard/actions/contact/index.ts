import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as deleteContact from './delete.operation';

export const operations = { create, delete: deleteContact };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['contact'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a contact, optionally in groups and with custom attributes',
				action: 'Create a contact',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a contact permanently',
				action: 'Delete a contact',
			},
		],
		default: 'create',
	},
	...create.description,
	...deleteContact.description,
];
