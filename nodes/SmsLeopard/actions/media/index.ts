import type { INodeProperties } from 'n8n-workflow';
import * as upload from './upload.operation';

export const operations = { upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['media'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload a document, image or video for template headers',
				action: 'Upload media for a template header',
			},
		],
		default: 'upload',
	},
	...upload.description,
];
