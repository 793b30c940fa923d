/** Contact > Delete: permanent; the contact leaves every group and loses its custom attributes. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { checkContactId } from '../../client/contacts/contacts';
import type { ExecutionState } from '../../helpers/execution-state';
import { optionsCollection } from '../common.fields';
import { showOnlyFor } from '../display-options';

const show = { resource: ['contact'], operation: ['delete'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		displayName: 'Contact ID',
		name: 'contactId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 42',
		description: 'The ID of the contact, as returned by Contact > Create',
	},
	optionsCollection('options', [
		{
			displayName: 'Succeed If Not Found',
			name: 'ignoreNotFound',
			type: 'boolean',
			default: false,
			description:
				'Whether a contact that does not exist (already deleted) counts as success, for clean-up flows',
		},
	]),
]);

/** The contact id, checked; the router checks every item before any contact is deleted. */
export async function prepare(this: IExecuteFunctions, itemIndex: number): Promise<string> {
	return checkContactId(this.getNodeParameter('contactId', itemIndex, ''));
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	contactId: string,
): Promise<IDataObject> {
	const options = this.getNodeParameter('options', itemIndex, {}) as { ignoreNotFound?: boolean };
	const result = await state.client.deleteContact(contactId, {
		ignoreNotFound: options.ignoreNotFound === true,
	});
	// The id as digits, exactly as deleted: a number would lose digits beyond 2^53. Only the answer's
	// message is shown: its other fields (an "error" in a 2xx, a contactId of its own) would read as
	// the outcome and cannot overwrite it.
	return {
		contactId: result.contactId,
		deleted: result.deleted,
		...(result.notFound ? { notFound: true } : {}),
		...(typeof result.message === 'string' ? { message: result.message } : {}),
		...(result.notes ? { notes: result.notes } : {}),
	};
}
