/**
 * Dry Run for the sending operations: every item is read and checked exactly as for a send (the
 * same prepare, the same planning into requests), nothing is sent or uploaded, and each item's
 * output says what would go out and what it would cost. The run's totals are an execution hint
 * above the output, so the items stay one per input.
 *
 * SMSLeopard's API gives no price before a send, so the cost is the user's price times the count:
 * left at 0, the output says it is unknown instead of showing 0.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SmsLeopardValidationError } from '../client';
import { readNumber } from '../helpers/number-option';
import type { ItemOutcome } from './operation';

export interface DryRun {
	on: boolean;
	/** Per SMS part (Send SMS) or per message (Send Template); undefined when not given. */
	price?: number;
}

/** The Dry Run switch and its price field for one operation; `unit` is "part" or "message". */
export function dryRunFields(unit: 'part' | 'message'): INodeProperties[] {
	const priceName = unit === 'part' ? 'pricePerPart' : 'pricePerMessage';
	return [
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description:
				unit === 'part'
					? 'Whether to check every item and count its SMS parts and cost without sending anything. The output shows what each recipient would get; the totals appear above it.'
					: 'Whether to check every item against its template without sending or uploading anything. The output shows what each recipient would get; the totals appear above it.',
		},
		{
			displayName: unit === 'part' ? 'Price per Part' : 'Price per Message',
			name: priceName,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description:
				unit === 'part'
					? "What one SMS part costs you, in your account's currency, to estimate the cost (SMSLeopard does not give prices before sending). 0: the cost is shown as unknown."
					: "What one template message costs you, in your account's currency, to estimate the cost (SMSLeopard does not give prices before sending). 0: the cost is shown as unknown.",
			displayOptions: { show: { dryRun: [true] } },
		},
	];
}

/** Read once per run, from the first item: a run either sends or it does not. */
export function readDryRun(context: IExecuteFunctions, unit: 'part' | 'message'): DryRun {
	if (context.getNodeParameter('dryRun', 0, false) !== true) return { on: false };
	const field = unit === 'part' ? 'pricePerPart' : 'pricePerMessage';
	const price = readNumber(context.getNodeParameter(field, 0, 0), 0, { min: 0 });
	if (!price.ok) throw new SmsLeopardValidationError([{ field, message: price.problem }]);
	return { on: true, ...(price.value > 0 ? { price: price.value } : {}) };
}

/** The cost fields of one item's dry-run output. */
export function estimatedCost(dryRun: DryRun, count: number): IDataObject {
	return {
		estimatedCost: dryRun.price === undefined ? null : roundMoney(dryRun.price * count),
	};
}

// Prices such as 0.8 times 3 give 2.4000000000000004 in floating point.
function roundMoney(value: number): number {
	return Math.round(value * 1e6) / 1e6;
}

/** One line for the run: counts, parts, cost, refusals, and that nothing was sent. */
export function dryRunSummary(
	dryRun: DryRun,
	unit: 'part' | 'message',
	outcomes: Array<ItemOutcome | undefined>,
): string {
	const results = outcomes.flatMap((outcome) => (outcome?.ok ? outcome.results : []));
	const refused = outcomes.filter((outcome) => outcome && !outcome.ok).length;
	const messages = results.length;
	const parts = results.reduce((sum, json) => sum + (Number(json.parts) || 0), 0);
	const counted =
		unit === 'part'
			? `${messages} SMS (${parts} part${parts === 1 ? '' : 's'})`
			: `${messages} template message${messages === 1 ? '' : 's'}`;
	const cost =
		dryRun.price === undefined
			? `cost unknown: set ${unit === 'part' ? 'Price per Part' : 'Price per Message'} to estimate it`
			: `estimated cost ${roundMoney(dryRun.price * (unit === 'part' ? parts : messages))} at ${dryRun.price} per ${unit}`;
	const refusals = refused
		? `; ${refused} item${refused === 1 ? '' : 's'} refused (see the output)`
		: '';
	return `Dry run, nothing was sent: ${counted} would go out, ${cost}${refusals}.`;
}
