/**
 * How the node paces its requests: items in parallel, an optional requests-per-second cap, how long to
 * wait out rate limits, and whether a send may be repeated after a server error (off: never twice).
 */
import { type IExecuteFunctions, type INodeProperties, NodeOperationError } from 'n8n-workflow';
import {
	MAX_RATE_LIMIT_WAIT_MS,
	MAX_TIMEOUT_MS,
	MIN_REQUESTS_PER_SECOND,
	type RetryOptions,
} from '../client';
import { itemLabel } from '../helpers/item-label';
import { readNumber } from '../helpers/number-option';

/**
 * A minute: long enough that a webhook per sign-up, even one every few seconds, lists once a
 * minute instead of twice per send; short enough that a template edited in the dashboard is
 * checked by its new fields within the minute. A kept listing never refuses an item by itself (it
 * is fetched again first), so the age only bounds how long an edit that still passes the old
 * check can go unseen by the node's check (the service still checks every send).
 */
export const KEEP_LISTINGS_DEFAULT_S = 60;
/** An hour at most: beyond that, a kept listing says more about the past than the account. */
export const KEEP_LISTINGS_MAX_S = 3600;

/** Executions Sharing the Limit at most: a campaign of 1,000 batches in flight at once. */
export const MAX_SHARED_BY = 1000;

export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Executions Sharing the Limit',
			name: 'sharedBy',
			type: 'number',
			default: 1,
			typeOptions: { minValue: 1, maxValue: MAX_SHARED_BY },
			description:
				"How many executions send with this account at the same time, this one included, such as a campaign's batches in progress on every worker (the shipped batch workflow reads them from its data table). This execution's share is Max Requests per Second divided by it. An n8n process running several such executions sends at the last one's share once for each of them, never beyond Max Requests per Second, and they send in the order they started, so a worker's next batch takes the whole of it as the one before ends. Only used with Max Requests per Second set.",
		},
		{
			displayName: 'Include Raw Answer',
			name: 'includeRawAnswer',
			type: 'boolean',
			default: false,
			description:
				"Whether to add SMSLeopard's answer as it came (field rawAnswer) to each Send Template output item, beside the flat fields",
		},
		{
			displayName: 'Items in Parallel',
			name: 'concurrency',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 1, maxValue: 200 },
			description: 'How many items are sent at the same time. Output order is kept.',
		},
		{
			displayName: 'Keep Listings (Seconds)',
			name: 'keepListings',
			type: 'number',
			default: KEEP_LISTINGS_DEFAULT_S,
			typeOptions: { minValue: 0, maxValue: KEEP_LISTINGS_MAX_S },
			description:
				"How long the account's sender and template listings, read to check each item before it is sent, are reused by later executions in this n8n process (each queue-mode worker keeps its own), so an execution that sends one message makes one request. An item about to be refused is checked against a fresh listing first, and a send the service refuses drops the kept one. 0 turns keeping off: every execution lists again.",
			displayOptions: { show: { '/operation': ['sendTemplate', 'upload'] } },
		},
		{
			displayName: 'Max Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description:
				"Never send faster than this; 0 means no limit, otherwise at least 0.001 (one request every 1,000 seconds). Set it a few percent below your account's limit. Without it, the node finds the limit itself: it slows down on each 429 and speeds up again after quiet periods.",
		},
		{
			displayName: 'Max Wait on Rate Limit (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			default: 300,
			typeOptions: { minValue: 0, maxValue: MAX_RATE_LIMIT_WAIT_MS / 1000 },
			description:
				'When SMSLeopard answers "too many requests", the item waits as it asks (at least a growing backoff), up to this long in all per item (at most 86,400, a day). A Retry-After longer than what is left fails the item at once, not sent.',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'perRecipient',
			options: [
				{
					name: 'One Item per Recipient',
					value: 'perRecipient',
					description: 'What each recipient was sent, its message ID and cost',
				},
				{
					name: 'Summary and Problems Only',
					value: 'summary',
					description:
						'One summary item (counts, cost, who was sent with their message IDs), then only the recipients maybe sent or not sent: keeps execution data small for batches of thousands',
				},
			],
			description:
				"What the node outputs after sending. For big batches, Summary and Problems Only keeps n8n's execution data and memory small; use it with On Error set to Continue, so the summary is output even when some recipients fail.",
			displayOptions: { show: { '/operation': ['sendTemplate', 'sendSms'] } },
		},
		{
			displayName: 'Retry Sends After Server Errors',
			name: 'retryUnsafe',
			type: 'boolean',
			default: false,
			description:
				'Whether to repeat a send or contact create after a server error or a lost connection. Recovers faster, but a message may then be delivered twice.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			default: 60,
			typeOptions: { minValue: 1, maxValue: MAX_TIMEOUT_MS / 1000 },
			description: 'How long to wait for each whole answer, at most 86,400 (a day)',
		},
	],
};

export interface RequestOptions {
	concurrency: number;
	requestsPerSecond: number;
	/** Executions sending with the account at once, this one included (Max Requests per Second's share). */
	sharedBy: number;
	retry: Partial<RetryOptions>;
	timeoutMs: number;
	/** Age accepted for a listing kept by an earlier execution; 0 = none kept. */
	keepListingsMs: number;
	/** Every recipient's output item, or one summary item and the problems only. */
	output: OutputShape;
}

export type OutputShape = 'perRecipient' | 'summary';

/** Output as chosen; an expression answering anything else is refused, not read as the default. */
function outputOption(context: IExecuteFunctions, raw: Record<string, unknown>): OutputShape {
	const value = raw.output ?? 'perRecipient';
	if (value === 'perRecipient' || value === 'summary') return value;
	throw new NodeOperationError(
		context.getNode(),
		`Invalid input in ${itemLabel(0)}: Request Options > Output is ${JSON.stringify(value)}`,
		{
			itemIndex: 0,
			description:
				'Nothing was sent. Set Request Options > Output to "perRecipient" (One Item per Recipient) or "summary" (Summary and Problems Only).',
		},
	);
}

/**
 * One numeric option as a number. An expression can hand over anything ("abc", "", an object, 0.5
 * items in parallel, 100000): that is refused with the option's name as the editor shows it and the
 * editor's own bounds, never silently turned into NaN (which made waits unbounded), clamped, or
 * reported under an internal name. Request Options are read from the first item, so it is named.
 */
function numberOption(
	context: IExecuteFunctions,
	raw: Record<string, unknown>,
	name: string,
	fallback: number,
	rule: { whole?: boolean; lowestAboveZero?: number },
): number {
	const option = requestOptionsField.options?.find((entry) => entry.name === name);
	const label = option && 'displayName' in option ? option.displayName : name;
	const bounds = option && 'typeOptions' in option ? option.typeOptions : undefined;
	const reading = readNumber(raw[name], fallback, {
		min: bounds?.minValue ?? Number.NEGATIVE_INFINITY,
		max: bounds?.maxValue,
		whole: rule.whole,
		lowestAboveZero: rule.lowestAboveZero,
	});
	if (!reading.ok) {
		throw new NodeOperationError(
			context.getNode(),
			`Invalid input in ${itemLabel(0)}: Request Options > ${label} ${reading.problem}`,
			{
				itemIndex: 0,
				description: `Nothing was sent. Request Options are read from the first item: set "${label}" under Request Options to a number, or remove it.`,
			},
		);
	}
	return reading.value;
}

export function readRequestOptions(context: IExecuteFunctions): RequestOptions {
	const raw = context.getNodeParameter('requestOptions', 0, {}) as Record<string, unknown>;
	const retryUnsafe = raw.retryUnsafe;
	return {
		concurrency: numberOption(context, raw, 'concurrency', 10, { whole: true }),
		// A rate near 0 is a typo that would wait for ages: refused rather than waited out.
		requestsPerSecond: numberOption(context, raw, 'requestsPerSecond', 0, {
			lowestAboveZero: MIN_REQUESTS_PER_SECOND,
		}),
		sharedBy: numberOption(context, raw, 'sharedBy', 1, { whole: true }),
		retry: {
			maxTotalWaitMs: numberOption(context, raw, 'maxRateLimitWait', 300, {}) * 1000,
			retryUnsafe: retryUnsafe === true || retryUnsafe === 'true',
		},
		timeoutMs: Math.round(numberOption(context, raw, 'timeout', 60, {}) * 1000),
		keepListingsMs: Math.round(
			numberOption(context, raw, 'keepListings', KEEP_LISTINGS_DEFAULT_S, {}) * 1000,
		),
		output: outputOption(context, raw),
	};
}
