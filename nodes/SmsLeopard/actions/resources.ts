/** The node's resources, their operations, and the Resource selector. */
import type { INodeProperties } from 'n8n-workflow';
import * as account from './account';
import * as contact from './contact';
import * as deliveryReport from './deliveryReport';
import * as group from './group';
import * as media from './media';
import * as message from './message';
import { includeInputFieldsFields } from './include-input-fields';
import type { Operation } from './operation';
import { requestOptionsField } from './request-options';
import * as senderNumber from './senderNumber';
import * as template from './template';

export const resources: Record<string, Record<string, Operation>> = {
	message: message.operations,
	media: media.operations,
	contact: contact.operations,
	group: group.operations,
	senderNumber: senderNumber.operations,
	template: template.operations,
	deliveryReport: deliveryReport.operations,
	account: account.operations,
};

export const resourceSelector: INodeProperties = {
	displayName: 'Resource',
	name: 'resource',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Account', value: 'account' },
		{ name: 'Contact', value: 'contact' },
		{ name: 'Delivery Report', value: 'deliveryReport' },
		{ name: 'Group', value: 'group' },
		{ name: 'Media', value: 'media' },
		{ name: 'Message', value: 'message' },
		{ name: 'Sender Number', value: 'senderNumber' },
		{ name: 'Template', value: 'template' },
	],
	default: 'message',
};

export const properties: INodeProperties[] = [
	resourceSelector,
	...message.description,
	...media.description,
	...contact.description,
	...group.description,
	...senderNumber.description,
	...template.description,
	...deliveryReport.description,
	...account.description,
	...includeInputFieldsFields,
	requestOptionsField,
];

/**
 * The canvas subtitle in words, the operation's own action ("Send an SMS"), never "sendSms:
 * message": n8n evaluates it as an expression, so the words are looked up from a table in it.
 */
function subtitleExpression(): string {
	const words: Record<string, string> = {};
	for (const property of properties) {
		if (property.name !== 'operation' || property.type !== 'options') continue;
		const [resource] = (property.displayOptions?.show?.resource ?? []) as string[];
		for (const option of property.options ?? []) {
			if ('value' in option && 'action' in option && typeof option.action === 'string') {
				words[`${resource}:${String(option.value)}`] = option.action;
			}
		}
	}
	return `={{ ${JSON.stringify(words)}[$parameter["resource"] + ":" + $parameter["operation"]] }}`;
}

export const subtitle = subtitleExpression();
