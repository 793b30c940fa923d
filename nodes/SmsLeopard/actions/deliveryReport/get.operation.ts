/** Delivery Report > Get: where one sent SMS stands, by the message id its send answered. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { hasNoteAbout } from '../../client';
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

const DELIVERED = new Set(['DELIVRD', 'DELIVERED']);
const FAILED = new Set(['UNDELIV', 'UNDELIVERABLE', 'EXPIRED', 'REJECTD', 'REJECTED', 'FAILED']);
const PENDING = new Set(['QUEUED', 'SENT', 'ACCEPTD', 'ACCEPTED', 'ENROUTE', 'PENDING']);

/** Carrier codes in plain words; the list is open, so an unknown code stays "unknown". */
export function outcomeOf(
	status: string | null | undefined,
): 'delivered' | 'failed' | 'pending' | 'unknown' {
	const code = (status ?? '').trim().toUpperCase();
	if (DELIVERED.has(code)) return 'delivered';
	if (FAILED.has(code)) return 'failed';
	if (PENDING.has(code)) return 'pending';
	return 'unknown';
}

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
