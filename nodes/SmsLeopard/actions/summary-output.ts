/**
 * Request Options > Output = Summary and Problems Only. A batch of thousands otherwise outputs an item
 * per recipient, which n8n holds in memory and saves in the execution data (450 KB per 1,000 template
 * sends). Here a sent recipient keeps only who, the message ID and the cost while the run goes on, and
 * the output is one summary item (counts, cost, who was sent, who maybe and who not) followed by one
 * item per recipient not confirmed sent, so nothing about a recipient is lost and a campaign can
 * record the batch in one write.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import { itemMayHaveBeenSent } from '../helpers/send-state';
import type { ItemOutcome } from './operation';

export const MAYBE_SENT = 'maybe sent';
export const NOT_SENT = 'not sent';

/** What a sent item keeps in summary mode: a few fields, whatever the operation's output holds. */
export function keptOfSent(results: IDataObject[]): IDataObject[] {
	return results.map((json) => ({
		recipient: json.recipient ?? null,
		messageId: json.messageId ?? null,
		cost: typeof json.cost === 'number' ? json.cost : null,
	}));
}

export interface ProblemFacts extends IDataObject {
	recipient: string;
	outcome: typeof MAYBE_SENT | typeof NOT_SENT;
}

export interface SummaryInput {
	outcomes: Array<ItemOutcome | undefined>;
	itemCount: number;
	/** The recipient an item was for, read from its parameters (a failed item has no output). */
	recipientOf(itemIndex: number): string;
	/** A failed item's output json (as Continue On Fail gives it), with its recipient and outcome. */
	problemJson(itemIndex: number, error: unknown, about: ProblemFacts): IDataObject;
}

/** The summary item first, then each recipient maybe sent or not sent, paired to its input item. */
export function summaryOutput(input: SummaryInput): INodeExecutionData[] {
	const sentTo: unknown[] = [];
	const messageIds: unknown[] = [];
	const maybeSentTo: string[] = [];
	const notSentTo: string[] = [];
	const problems: INodeExecutionData[] = [];
	let cost = 0;
	let costKnown = false;
	const paired: Array<{ item: number }> = [];
	for (let itemIndex = 0; itemIndex < input.itemCount; itemIndex++) {
		const outcome = input.outcomes[itemIndex];
		if (!outcome) continue;
		paired.push({ item: itemIndex });
		if (outcome.ok) {
			for (const json of outcome.results) {
				sentTo.push(json.recipient ?? null);
				messageIds.push(json.messageId ?? null);
				if (typeof json.cost === 'number') {
					cost += json.cost;
					costKnown = true;
				}
			}
			continue;
		}
		const recipient = input.recipientOf(itemIndex);
		const maybe = itemMayHaveBeenSent(outcome.error);
		(maybe ? maybeSentTo : notSentTo).push(recipient);
		problems.push({
			json: input.problemJson(itemIndex, outcome.error, {
				recipient,
				outcome: maybe ? MAYBE_SENT : NOT_SENT,
			}),
			pairedItem: { item: itemIndex },
		});
	}
	const summary: IDataObject = {
		summary: true,
		items: input.itemCount,
		sent: sentTo.length,
		maybeSent: maybeSentTo.length,
		notSent: notSentTo.length,
		// Rounded to millionths: 1,000 additions of 0.8 would otherwise print 799.9999999999.
		cost: costKnown ? Math.round(cost * 1e6) / 1e6 : null,
		sentTo,
		messageIds,
		maybeSentTo,
		notSentTo,
	};
	return [{ json: summary, pairedItem: paired }, ...problems];
}
