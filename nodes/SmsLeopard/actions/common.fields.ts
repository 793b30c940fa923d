/** Fields more than one operation shows: the sender number and template pickers, a binary field. */
import type { INodeProperties } from 'n8n-workflow';

export const senderNumberField: INodeProperties = {
	displayName: 'Sender Number',
	name: 'senderNumber',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description:
		'The WhatsApp number that sends. SMSLeopard knows it by its phone number ID (phone_number_id in its API), not by its record ID.',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSenderNumbers', searchable: true },
		},
		{
			displayName: 'By Phone Number ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 110000000000001',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: '^[A-Za-z0-9_.:-]+$',
						errorMessage: 'A phone number ID holds letters, digits and . _ : - only',
					},
				},
			],
		},
	],
};

export const templateField: INodeProperties = {
	displayName: 'Template',
	name: 'template',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'An approved template of the sender number',
	// Templates belong to a sender: n8n clears the chosen template when the sender changes.
	typeOptions: { loadOptionsDependsOn: ['senderNumber.value'] },
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchTemplates', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 1234567890',
		},
	],
};

/** The item's binary field that holds a file (Media > Upload, Send Template's header file). */
export const inputBinaryField: INodeProperties = {
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field holding the file',
};

/** An operation's "Options" collection (n8n's "Add Option" list), by its parameter name. */
export function optionsCollection(name: string, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}
