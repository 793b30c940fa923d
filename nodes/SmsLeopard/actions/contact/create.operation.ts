/** Contact > Create: a contact with optional name, e-mail, groups and custom attributes. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { type CreateContactBody, buildCreateContactBody } from '../../client/contacts/contacts';
import { toJson } from '../../helpers/output';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';

const show = { resource: ['contact'], operation: ['create'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		displayName: 'Phone Number',
		name: 'phoneNumber',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. +254712345678',
		description: 'International format with or without +, or local format',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Custom Attributes',
				name: 'customAttributes',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				placeholder: 'Add Attribute',
				default: {},
				description:
					'Profile attributes such as signup source, last purchase or survey score (sent as custom_metadata)',
				options: [
					{
						displayName: 'Attribute',
						name: 'attribute',
						values: [
							{ displayName: 'Name', name: 'name', type: 'string', default: '' },
							{ displayName: 'Value', name: 'value', type: 'string', default: '' },
						],
					},
				],
			},
			{
				displayName: 'Email',
				name: 'email',
				type: 'string',
				placeholder: 'name@email.com',
				default: '',
			},
			{
				displayName: 'Group Names or IDs',
				name: 'groupIds',
				type: 'multiOptions',
				typeOptions: { loadOptionsMethod: 'getGroups' },
				default: [],
				description:
					'Groups to add the contact to. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				description: 'Full name of the contact',
			},
		],
	},
]);

interface AdditionalFields {
	name?: string;
	email?: string;
	groupIds?: Array<number | string> | string;
	customAttributes?: { attribute?: Array<{ name: string; value: string }> };
}

/** Expressions often give "1,2" or a single id rather than a list. */
function groupList(value: AdditionalFields['groupIds']): Array<number | string> | undefined {
	if (value === undefined || value === '') return undefined;
	if (Array.isArray(value)) return value;
	return String(value)
		.split(',')
		.map((part) => part.trim())
		.filter((part) => part !== '');
}

/** Reads and checks the item's contact; the router checks every item before any is created. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<CreateContactBody> {
	const phoneNumber = this.getNodeParameter('phoneNumber', itemIndex, '') as string;
	const fields = this.getNodeParameter('additionalFields', itemIndex, {}) as AdditionalFields;
	return buildCreateContactBody({
		phoneNumber,
		name: fields.name || undefined,
		email: fields.email || undefined,
		groupIds: groupList(fields.groupIds),
		customAttributes: fields.customAttributes?.attribute,
	});
}

export async function execute(
	this: IExecuteFunctions,
	_itemIndex: number,
	state: ExecutionState,
	sent: CreateContactBody,
): Promise<IDataObject> {
	const contact = await state.client.createPreparedContact(sent);
	// The answer is the bare record; the API stored the groups and attributes sent with it, so they
	// are shown beside it as they were sent (the record's own fields win).
	return {
		...(sent.group_ids ? { groupIds: sent.group_ids } : {}),
		...(sent.custom_metadata
			? { customAttributes: sent.custom_metadata.fields as unknown as IDataObject[] }
			: {}),
		...toJson(contact),
	};
}
