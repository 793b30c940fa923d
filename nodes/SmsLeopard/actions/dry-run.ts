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

export type DryRunUnit = 'part' | 'message';

/** What differs between the two units: the price field, and how the switch and price are told. */
const UNITS: Record<
	DryRunUnit,
	{ priceField: string; priceLabel: string; checks: string; priceOf: string }
> = {
	part: {
		priceField: 'pricePerPart',
		priceLabel: 'Price per Part',
		checks: 'check every item and count its SMS parts and cost without sending anything',
		priceOf: 'one SMS part',
	},
	message: {
		priceField: 'pricePerMessage',
		priceLabel: 'Price per Message',
		checks: 'check every item against its template without sending or uploading anything',
		priceOf: 'one template message',
	},
};

/** The Dry Run switch and its price field for one operation. */
export function dryRunFields(unit: DryRunUnit): INodeProperties[] {
	const { priceField, priceLabel, checks, priceOf } = UNITS[unit];
	return [
		{
			displayName: 'Dry Run',
			name: 'dryRun',
			type: 'boolean',
			default: false,
			description: `Whether to ${checks}. The output shows what each recipient would get; the totals appear above it.`,
		},
		{
			displayName: priceLabel,
			name: priceField,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description: `What ${priceOf} costs you, in your account's currency, to estimate the cost (SMSLeopard does not give prices before sending). 0: the cost is shown as unknown.`,
			displayOptions: { show: { dryRun: [true] } },
		},
	];
}

/** Read once per run, from the first item: a run either sends or it does not. */
export function readDryRun(context: IExecuteFunctions, unit: DryRunUnit): DryRun {
	if (context.getNodeParameter('dryRun', 0, false) !== true) return { on: false };
	const field = UNITS[unit].priceField;
	const price = readNumber(context.getNodeParameter(field, 0, 0), 0, { min: 0 });
	if (!price.ok) throw new SmsLeopardValidationError([{ field, message: price.problem }]);
	return { on: true, ...(price.value > 0 ? { price: price.value } : {}) };
}

/** The cost fields of one item's dry-run output. */
export function estimatedCost(dryRun: DryRun, count: number): IDataObject {
	return { estimatedCost: costOf(dryRun, count) };
}

/** Price times count, rounded: 0.8 times 3 is 2.4, not 2.4000000000000004. Null without a price. */
function costOf(dryRun: DryRun, count: number): number | null {
	return dryRun.price === undefined ? null : Math.round(dryRun.price * count * 1e6) / 1e6;
}

/** One line for the run: counts, parts, cost, refusals, and that nothing was sent. */
export function dryRunSummary(
	dryRun: DryRun,
	unit: DryRunUnit,
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
			? `cost unknown: set ${UNITS[unit].priceLabel} to estimate it`
			: `estimated cost ${costOf(dryRun, unit === 'part' ? parts : messages)} at ${dryRun.price} per ${unit}`;
	const refusals = refused
		? `; ${refused} item${refused === 1 ? '' : 's'} refused (see the output)`
		: '';
	return `Dry run, nothing was sent: ${counted} would go out, ${cost}${refusals}.`;
}
