/**
 * Dry Run for the sending operations: every item is read and checked exactly as for a send (the
 * same prepare, the same planning into requests), nothing is sent or uploaded, and every item gets
 * an output: what would go out and what it would cost, or why it would be refused and how to fix
 * it. A campaign check shows every problem at once, so a refusal does not stop a dry run. The run's
 * totals are an execution hint above the output, so the items stay one per input.
 *
 * SMSLeopard's API gives no price before a send, so the cost is the user's price times the count:
 * left at 0, the output says it is unknown instead of showing 0.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SmsLeopardValidationError } from '../client';
import { readNumber } from '../helpers/number-option';
import { describeValidation } from '../helpers/node-errors';
import { fieldLabel } from '../helpers/field-labels';
import type { DryRun, DryRunUnit, ItemOutcome } from './operation';

/** The `outcome` of a dry run's item: the words the output and the totals use. */
export const WOULD_SEND = 'would send';
export const WOULD_BE_REFUSED = 'would be refused';

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
			description: `Whether to ${checks}. Every item is listed as "would send" (what the recipient would get) or "would be refused" (why, and how to fix it); the totals appear above the output.`,
		},
		// Always shown: n8n drops a hidden parameter's value, so a price shown only with Dry Run on
		// was lost each time Dry Run was turned off.
		{
			displayName: priceLabel,
			name: priceField,
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 4 },
			default: 0,
			description: `Used by Dry Run: what ${priceOf} costs you, in your account's currency, to estimate the cost (SMSLeopard does not give prices before sending). 0: the cost is shown as unknown.`,
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

/**
 * The recipient column of a refused row: what the item's Recipient gave, as text. Never absent,
 * or n8n's table shows a red "undefined" under Recipient; an expression that fails is "".
 */
function recipientText(recipientOf: () => unknown): string {
	try {
		const value = recipientOf();
		if (value === undefined || value === null) return '';
		return typeof value === 'object' ? JSON.stringify(value) : String(value as string);
	} catch {
		return '';
	}
}

/**
 * A dry run's output for an item a send would refuse: the recipient, the reason naming the field,
 * and the fix. Only refusals by the checks: a failure to reach SMSLeopard is not the item's fault
 * and stays an error, as in a send.
 */
export function refusedInDryRun(
	error: unknown,
	recipientOf: () => unknown = () => '',
): IDataObject | undefined {
	if (!(error instanceof SmsLeopardValidationError)) return undefined;
	return {
		dryRun: true,
		outcome: WOULD_BE_REFUSED,
		recipient: recipientText(recipientOf),
		reason: describeValidation(error),
		fix: 'Correct the field named in the reason (or the expression that fills it), then run again.',
		fields: error.issues.map((issue) => fieldLabel(issue.field)),
	};
}

/** "2 SMS would go out (3 parts, cost …)", "1 template message would go out (cost …)". */
function goingOut(dryRun: DryRun, unit: DryRunUnit, results: IDataObject[]): string {
	const count = results.length;
	const parts = results.reduce((sum, json) => sum + (Number(json.parts) || 0), 0);
	const cost =
		dryRun.price === undefined
			? `cost unknown: set ${UNITS[unit].priceLabel} to estimate it`
			: `estimated cost ${costOf(dryRun, unit === 'part' ? parts : count)} at ${dryRun.price} per ${unit}`;
	return unit === 'part'
		? `${count} SMS would go out (${parts} part${parts === 1 ? '' : 's'}, ${cost})`
		: `${count} template message${count === 1 ? '' : 's'} would go out (${cost})`;
}

/** One line for the run: what would go out, its parts and cost, and what would be refused. */
export function dryRunSummary(
	dryRun: DryRun,
	unit: DryRunUnit,
	outcomes: Array<ItemOutcome | undefined>,
): string {
	const results = outcomes.flatMap((outcome) => (outcome?.ok ? outcome.results : []));
	const going = results.filter((json) => json.outcome !== WOULD_BE_REFUSED);
	const refused = results.length - going.length;
	// Under Continue On Fail, an item whose check could not reach SMSLeopard is an error item.
	const failed = outcomes.filter((outcome) => outcome && !outcome.ok).length;
	const unchecked = failed ? `, ${failed} could not be checked (see the error items)` : '';
	return `Dry run, nothing was sent: ${goingOut(dryRun, unit, going)}, ${refused} would be refused${refused ? ' (their "reason" and "fix" are in the output)' : ''}${unchecked}.`;
}
