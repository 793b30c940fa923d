/**
 * How the node paces its requests: items in parallel, an optional requests-per-second cap, how long to
 * wait out rate limits, and whether a send may be repeated after a server error (off: never twice).
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { RetryOptions } from '../client';

export const requestOptionsField: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Items in Parallel',
			name: 'concurrency',
			type: 'number',
			default: 10,
			typeOptions: { minValue: 1, maxValue: 200 },
			description: 'How many items are sent at the same time. Output order is kept.',
		},
		{
			displayName: 'Max Requests per Second',
			name: 'requestsPerSecond',
			type: 'number',
			default: 0,
			typeOptions: { minValue: 0 },
			description:
				"Never send faster than this; 0 means no limit. Set it a few percent below your account's limit. Without it, the node finds the limit itself: it slows down on each 429 and speeds up again after quiet periods.",
		},
		{
			displayName: 'Max Wait on Rate Limit (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			default: 300,
			typeOptions: { minValue: 0 },
			description:
				'When SMSLeopard answers "too many requests", the item waits as it asks (at least a growing backoff), up to this long in all per item',
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
			typeOptions: { minValue: 1 },
			description: 'How long to wait for each answer',
		},
	],
};

export interface RequestOptions {
	concurrency: number;
	requestsPerSecond: number;
	retry: Partial<RetryOptions>;
	timeoutMs: number;
}

export function readRequestOptions(context: IExecuteFunctions): RequestOptions {
	const raw = context.getNodeParameter('requestOptions', 0, {}) as {
		concurrency?: number;
		requestsPerSecond?: number;
		maxRateLimitWait?: number;
		retryUnsafe?: boolean;
		timeout?: number;
	};
	return {
		concurrency: Math.max(1, Math.floor(raw.concurrency ?? 10)),
		requestsPerSecond: Math.max(0, raw.requestsPerSecond ?? 0),
		retry: {
			maxTotalWaitMs: Math.max(0, raw.maxRateLimitWait ?? 300) * 1000,
			retryUnsafe: raw.retryUnsafe ?? false,
		},
		timeoutMs: Math.max(1, raw.timeout ?? 60) * 1000,
	};
}
