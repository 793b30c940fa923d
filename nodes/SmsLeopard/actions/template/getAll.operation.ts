/** Template > Get Many: a sender number's templates, with what each needs at send time. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { describeTemplate, senderRecordId } from '../../client';
import { senderNumberField } from '../common.fields';
import { toJson } from '../../helpers/output';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';

const show = { resource: ['template'], operation: ['getAll'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	senderNumberField,
	{
		displayName: 'Approved Only',
		name: 'approvedOnly',
		type: 'boolean',
		default: true,
		description: 'Whether to return only approved templates, the only ones that can be sent',
	},
]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): Promise<IDataObject[]> {
	const phoneNumberId = this.getNodeParameter('senderNumber', itemIndex, '', {
		extractValue: true,
	}) as string;
	const approvedOnly = this.getNodeParameter('approvedOnly', itemIndex, true) as boolean;
	const sender = await state.client.findSenderNumber(phoneNumberId);
	const templates = await state.client.listTemplates(senderRecordId(sender));
	return templates
		.map((template) => ({ template, described: describeTemplate(template) }))
		.filter(({ described }) => !approvedOnly || described.approved)
		.map(({ template, described }) =>
			toJson({
				...template,
				bodyPlaceholders: described.bodyPlaceholders,
				headerFormat: described.header?.format ?? null,
				buttons: described.buttons,
			}),
		);
}
