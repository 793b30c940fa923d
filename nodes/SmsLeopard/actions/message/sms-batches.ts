/**
 * SMS items go out many per request. Items that share what one request carries (sender ID, text or
 * pattern, delivery report URL and secret) are grouped in input order and cut into batches; each
 * answered recipient is paired back to its item (client/recipient-pairing.ts). A batch whose answer
 * was lost, unreadable or a 5xx may have been sent: every item of it is reported "maybe sent", and
 * so is an item the answer does not provably list; nothing is sent again.
 */
import type { IDataObject } from 'n8n-workflow';
import {
	type SendSmsBody,
	type SmsLeopardClient,
	type SmsSegments,
	type RecipientEntry,
	SmsLeopardConnectionError,
	SmsLeopardResponseError,
	SmsLeopardServerError,
	SmsLeopardUnconfirmedError,
	currencyOf,
	pairRecipients,
} from '../../client';
import { itemLabel, itemsLabel } from '../../helpers/item-label';
import { itemMayHaveBeenSent } from '../../helpers/send-state';
import { unpairedAnswer } from './unpaired-answer';
import type { ItemOutcome } from '../operation';

export interface SmsItem {
	itemIndex: number;
	/** The fields every recipient of one request shares. */
	shared: Omit<SendSmsBody, 'destination'>;
	recipient: SendSmsBody['destination'][number];
	segments: SmsSegments;
}

/** Groups items that can share a request (first-seen order) and cuts each group into batches. */
export function planBatches(items: SmsItem[], size: number): SmsItem[][] {
	const groups = new Map<string, SmsItem[]>();
	for (const item of items) {
		const key = JSON.stringify(item.shared);
		const group = groups.get(key) ?? [];
		group.push(item);
		groups.set(key, group);
	}
	const batches: SmsItem[][] = [];
	for (const group of groups.values()) {
		for (let start = 0; start < group.length; start += size) {
			batches.push(group.slice(start, start + size));
		}
	}
	return batches.sort((a, b) => a[0].itemIndex - b[0].itemIndex);
}

function maybeSent(error: unknown, batch: SmsItem[]): SmsLeopardUnconfirmedError {
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
		`Maybe sent: no confirmation for the SMS request of ${batch.length} recipient(s) (${itemsLabel(
			batch.map((item) => item.itemIndex),
			10,
		)}): ${reason}. ` +
			'It was not sent again; check the SMSLeopard dashboard or the delivery reports before sending these again',
		code,
	);
}

function resultJson(
	item: SmsItem,
	answered: RecipientEntry & { id: string },
	currency: string | undefined,
): IDataObject {
	const { segments } = item;
	return {
		recipient: item.recipient.number,
		number: answered.number ?? item.recipient.number,
		messageId: answered.id,
		status: answered.status,
		parts: segments.parts,
		encoding: segments.encoding,
		characters: segments.length,
		...(segments.nonGsmCharacters.length ? { nonGsmCharacters: segments.nonGsmCharacters } : {}),
		cost: answered.cost ?? null,
		currency: currency ?? null,
		...(answered.notes ? { notes: answered.notes } : {}),
	};
}

/** Sends one batch and answers the outcome of each of its items, in batch order. */
export async function sendBatch(
	client: SmsLeopardClient,
	batch: SmsItem[],
): Promise<ItemOutcome[]> {
	const body: SendSmsBody = {
		...batch[0].shared,
		destination: batch.map((item) => item.recipient),
	};
	let answer;
	try {
		answer = await client.sendSms({ body, segments: batch.map((item) => item.segments) });
	} catch (error) {
		const failure = itemMayHaveBeenSent(error) ? maybeSent(error, batch) : error;
		return batch.map(() => ({ ok: false, error: failure }));
	}
	const currency = currencyOf(answer.message);
	const paired = pairRecipients(
		batch.map((item) => item.recipient.number),
		answer.recipients,
	);
	return batch.map((item, position) => {
		const answered = paired[position];
		if (answered?.id !== undefined) {
			return { ok: true, results: [resultJson(item, { ...answered, id: answered.id }, currency)] };
		}
		return {
			ok: false,
			error: unpairedAnswer(
				`the request of ${itemLabel(item.itemIndex)} ("${answer.message ?? ''}")`,
				item.recipient.number,
				answered,
				'the SMSLeopard dashboard or the delivery reports',
			),
		};
	});
}

/** Runs the batches `concurrency` at a time; with `stopOnFailure` nothing new starts after one fails. */
export async function runBatches(
	batches: SmsItem[][],
	concurrency: number,
	stopOnFailure: boolean,
	send: (batch: SmsItem[]) => Promise<ItemOutcome[]>,
	outcomes: Array<ItemOutcome | undefined>,
): Promise<void> {
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < batches.length) {
			const batch = batches[next++];
			const settled = await send(batch);
			settled.forEach((outcome, position) => {
				outcomes[batch[position].itemIndex] = outcome;
				if (!outcome.ok && stopOnFailure) stopped = true;
			});
		}
	};
	await Promise.all(
		Array.from({ length: Math.max(1, Math.min(concurrency, batches.length)) }, worker),
	);
}
