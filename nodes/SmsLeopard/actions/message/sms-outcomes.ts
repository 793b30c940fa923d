/**
 * What one planned SMS request's answer means for each of its items (the client plans and sends,
 * client/sms/sms-plan.ts). Each answered recipient is paired back to its item
 * (client/http/recipient-pairing.ts). A request whose answer was lost, unreadable or a 5xx may have been
 * sent: every item of it is reported "maybe sent", and so is an item the answer does not provably
 * list; nothing is sent again.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	type PlannedSmsRequest,
	type RecipientEntry,
	type SmsLeopardClient,
	type SmsSegments,
	SmsLeopardConnectionError,
	SmsLeopardResponseError,
	SmsLeopardServerError,
	SmsLeopardUnconfirmedError,
	currencyOf,
	pairRecipients,
} from '../../client';
import { settle } from '../../client/http/settle';
import { itemLabel, itemsLabel } from '../../helpers/item-label';
import { itemMayHaveBeenSent } from '../../helpers/send-state';
import { unpairedAnswer } from './unpaired-answer';
import type { DryRun, ItemOutcome } from '../operation';
import { WOULD_SEND, estimatedCost } from '../dry-run';

function maybeSent(error: unknown, itemIndexes: number[]): SmsLeopardUnconfirmedError {
	// In words, not the network code: n8n replaces any message holding a code (ECONNRESET, ...) by
	// its generic text, which would lose the items named here. The code travels separately.
	const [reason, code] =
		error instanceof SmsLeopardConnectionError
			? ['the connection was lost after the request went out', error.causeCode]
			: error instanceof SmsLeopardServerError
				? [`SMSLeopard answered HTTP ${error.status} (${error.apiMessage})`, `http_${error.status}`]
				: error instanceof SmsLeopardResponseError
					? [`the answer (HTTP ${error.status}) could not be read`, `http_${error.status}`]
					: ['no usable answer', 'unknown'];
	return new SmsLeopardUnconfirmedError(
		`Maybe sent: no confirmation for the SMS request of ${itemIndexes.length} recipient(s) (${itemsLabel(
			itemIndexes,
			10,
		)}): ${reason}. ` +
			'It was not sent again; check the SMSLeopard dashboard or the delivery reports before sending these again',
		code,
	);
}

/** The text a recipient of the request gets: their own (customized) or the one all share. */
function textOf(request: PlannedSmsRequest, position: number): string {
	return request.body.destination[position].message ?? request.body.message;
}

/** How a recipient's text is counted, the same in a send's output and in a dry run's. */
function partsFields(segments: SmsSegments): IDataObject {
	return {
		parts: segments.parts,
		encoding: segments.encoding,
		characters: segments.length,
		...(segments.nonGsmCharacters.length ? { nonGsmCharacters: segments.nonGsmCharacters } : {}),
	};
}

function resultJson(
	recipient: string,
	text: string,
	segments: SmsSegments,
	answered: RecipientEntry & { id: string },
	currency: string | undefined,
): IDataObject {
	return {
		outcome: 'sent',
		recipient,
		number: answered.number ?? recipient,
		messageId: answered.id,
		status: answered.status,
		message: text,
		...partsFields(segments),
		cost: answered.cost ?? null,
		currency: currency ?? null,
		...(answered.notes ? { notes: answered.notes } : {}),
	};
}

/**
 * Dry Run: what each recipient of a planned request would get (its text, parts and cost), as the
 * request body has it; `index` is the request's place in the run.
 */
export function previewPlannedRequest(
	request: PlannedSmsRequest,
	index: number,
	dryRun: DryRun,
): ItemOutcome[] {
	return request.body.destination.map((destination, position) => {
		const segments = request.segments[position];
		return {
			ok: true,
			results: [
				{
					dryRun: true,
					outcome: WOULD_SEND,
					recipient: destination.number,
					number: destination.number,
					message: textOf(request, position),
					...partsFields(segments),
					...estimatedCost(dryRun, segments.parts),
					request: index + 1,
				},
			],
		};
	});
}

/**
 * Sends one planned request and answers the outcome of each of its recipients, in request order;
 * `itemIndexes` names the item of each.
 */
export async function sendPlannedRequest(
	client: SmsLeopardClient,
	request: PlannedSmsRequest,
	itemIndexes: number[],
): Promise<ItemOutcome[]> {
	const sent = await settle(async () => await client.sendPreparedSms(request));
	if (!sent.ok) {
		const failure = itemMayHaveBeenSent(sent.error)
			? maybeSent(sent.error, itemIndexes)
			: sent.error;
		return itemIndexes.map(() => ({ ok: false, error: failure }));
	}
	const answer = sent.value;
	const currency = currencyOf(answer.message);
	const numbers = request.body.destination.map((destination) => destination.number);
	const paired = pairRecipients(numbers, answer.recipients);
	return numbers.map((number, position) => {
		const answered = paired[position];
		if (answered?.id !== undefined) {
			const entry = { ...answered, id: answered.id };
			return {
				ok: true,
				results: [
					resultJson(
						number,
						textOf(request, position),
						request.segments[position],
						entry,
						currency,
					),
				],
			};
		}
		return {
			ok: false,
			error: unpairedAnswer(
				`the request of ${itemLabel(itemIndexes[position])} ("${answer.message ?? ''}")`,
				number,
				answered,
				'the SMSLeopard dashboard or the delivery reports',
			),
		};
	});
}
