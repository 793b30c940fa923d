/** Delivery Report > Get: where one sent SMS stands, by the message id its send answered. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { hasNoteAbout, outcomeOf } from '../../client';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';

const show = { resource: ['deliveryReport'], operation: ['get'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		displayName: 'Message ID',
		name: 'messageId',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. eb4647b2-2695-4aba-958e-0b39d965f6d0',
		description:
			'The message ID of one recipient, as Message > Send SMS outputs it (its messageId field)',
	},
]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): Promise<IDataObject> {
	const messageId = this.getNodeParameter('messageId', itemIndex, '') as string;
	const report = await state.client.getDeliveryReport(messageId);
	// Odd fields are null, each with a note (answer-values.ts); a report that leaves its id out is
	// still the report of the message asked for.
	return {
		messageId: report.id === undefined ? messageId.trim() : report.id,
		status: report.status,
		outcome: outcomeOf(report.status),
		reason: hasNoteAbout(report, 'reason') ? null : (report.reason ?? ''),
		// As the answer gave it (seconds, milliseconds or a date text), and the ISO date it means.
		time: report.time?.given ?? null,
		updatedAt: report.time?.iso ?? null,
		...(report.notes ? { notes: report.notes } : {}),
	};
}
