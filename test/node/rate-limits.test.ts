import { TEMPLATES, type SandboxOptions } from '../sandbox';
import { phoneItems, senderLocator, templateLocator, useNodeEnv } from './support';

const env = useNodeEnv();

const sendFlow = (requestOptions: Record<string, number | boolean>) => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(TEMPLATES.flow.id),
	destination: '={{ $json.phone }}',
	variablesMode: 'define',
	requestOptions,
});

const phones = (count: number) => phoneItems('+2547004', count);

describe('rate limits in the real n8n engine', () => {
	it('waits out 429 answers and sends every item exactly once', async () => {
		// burst429 makes sure 429s come even when a loaded machine cannot reach 40 requests a second.
		env.sandbox.setOptions({ rateLimitPerSecond: 40, burst429: 3 });
		const { items, error } = await env.run(sendFlow({ concurrency: 10 }), phones(100));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(100);
		expect(env.sandbox.requests.some((request) => request.status === 429)).toBe(true);
		const counts = Object.values(env.sandbox.state.sendCountByDestination);
		expect(counts).toHaveLength(100);
		expect(counts.every((count) => count === 1)).toBe(true);
	}, 30_000);

	it('slows to the limit after the first 429s: the rest of the run keeps under it', async () => {
		env.sandbox.setOptions({ rateLimitPerSecond: 40 });
		const { items, error } = await env.run(sendFlow({ concurrency: 10 }), phones(100));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(100);
		const statuses = env.sandbox.requests.map((request) => request.status);
		const firstRefused = statuses.indexOf(429);
		// The first burst: the 10 items in flight when the limit was reached. Without learning, every
		// second of the run meets the limit again (20 refusals for these 100 items); a stray probe allowed.
		// A machine too loaded to reach 40 requests a second meets no limit at all: nothing to learn.
		const refusedLater =
			firstRefused < 0 ? [] : statuses.slice(firstRefused + 10).filter((status) => status === 429);
		expect(refusedLater.length).toBeLessThanOrEqual(1);
	}, 30_000);

	it('Max Requests per Second keeps under an account limit: no 429 at all', async () => {
		env.sandbox.setOptions({ rateLimitPerSecond: 20 });
		const { items, error } = await env.run(
			sendFlow({ concurrency: 10, requestsPerSecond: 15 }),
			phones(30),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(30);
		expect(env.sandbox.requests.filter((request) => request.status === 429)).toHaveLength(0);
	}, 30_000);

	it('two executions at once share the account: Max Requests per Second holds for both together', async () => {
		// 15 a second each would be 30 together against the account's 20; shared, 15 in all.
		env.sandbox.setOptions({ rateLimitPerSecond: 20 });
		const parameters = sendFlow({ concurrency: 5, requestsPerSecond: 15 });
		const [first, second] = await Promise.all([
			env.run(parameters, phones(30)),
			env.run(parameters, phoneItems('+2547005', 30)),
		]);
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(Object.keys(env.sandbox.state.sendCountByDestination)).toHaveLength(60);
		// A count, not the requests: a failure must not print their Authorization headers.
		expect(env.sandbox.requests.filter((request) => request.status === 429).length).toBe(0);
	}, 30_000);

	it('Executions Sharing the Limit: an execution sends at its share of Max Requests per Second', async () => {
		// 20 a second shared by 4 executions: this one starts at most 5 a second (a campaign's batch
		// among four sending on the workers), where alone it would start 20.
		const parameters = sendFlow({ concurrency: 10, requestsPerSecond: 20, sharedBy: 4 });
		const { items, error } = await env.run(parameters, phones(16));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(16);
		const sends = env.sandbox.requests.filter((request) => request.method === 'POST');
		const seconds = (sends[sends.length - 1].receivedAt - sends[0].receivedAt) / 1000;
		// 16 sends at 5 a second are 15 intervals of 200 ms: 3 s (at 20 a second, 0.75 s).
		expect(sends).toHaveLength(16);
		expect(seconds).toBeGreaterThanOrEqual(2.9);
	}, 30_000);

	it('gives up when the rate-limit wait budget is spent, naming the rate limit', async () => {
		// Three requests a second: the sender and template lookups, then the first send.
		env.sandbox.setOptions({ rateLimitPerSecond: 3 });
		const { items, error } = await env.run(
			sendFlow({ concurrency: 1, maxRateLimitWait: 0 }),
			phones(3),
			{
				continueOnFail: true,
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json.messageId).toEqual(expect.any(String));
		expect(items[1].json).toMatchObject({ errorKind: 'rateLimit', httpStatus: 429 });
	});

	it('Retry-After 0 from a gateway that keeps refusing: Max Wait on Rate Limit still ends it', async () => {
		env.sandbox.setOptions({ burst429: 100_000, burst429RetryAfter: '0' });
		const { items, error } = await env.run(
			sendFlow({ concurrency: 1, maxRateLimitWait: 2 }),
			phones(1),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ errorKind: 'rateLimit', httpStatus: 429 });
		// Growing waits of at least 250 ms within a 2 s budget per call (the sender and template look-ups
		// each have one): a handful of requests, not thousands as before.
		expect(env.sandbox.requests.length).toBeLessThanOrEqual(10);
		expect(Object.keys(env.sandbox.state.sendCountByDestination)).toHaveLength(0);
	});
});

describe('every limiter model in the real n8n engine: 300 sends at 100/s, defaults', () => {
	const cases: Array<[string, Partial<SandboxOptions>]> = [
		['sliding window', { rateLimitModel: 'sliding' }],
		['fixed windows', { rateLimitModel: 'fixed' }],
		['token bucket, burst 20', { rateLimitModel: 'tokenBucket', rateLimitBurst: 20 }],
		['token bucket, Retry-After 0', { rateLimitModel: 'tokenBucket', rateLimitRetryAfter: 'zero' }],
		['fixed windows, no Retry-After', { rateLimitModel: 'fixed', rateLimitRetryAfter: 'none' }],
		['sliding window, Retry-After in the past', { rateLimitRetryAfter: 'pastDate' }],
		[
			'a limit that drops to 50/s after 1 s',
			{ rateLimitModel: 'tokenBucket', rateLimitChange: { afterMs: 1000, perSecond: 50 } },
		],
	];

	it.each(cases)(
		'%s: 0 failed, each sent once, few refusals',
		async (_name, limiter) => {
			env.sandbox.setOptions({ rateLimitPerSecond: 100, ...limiter });
			const { items, error } = await env.run(sendFlow({}), phones(300));
			expect(error).toBeUndefined();
			expect(items).toHaveLength(300);
			expect(items.every((item) => typeof item.json.messageId === 'string')).toBe(true);
			const counts = Object.values(env.sandbox.state.sendCountByDestination);
			expect(counts).toHaveLength(300);
			expect(counts.every((count) => count === 1)).toBe(true);
			// Refusals cost requests, not items: the adaptive rate keeps them to a small share.
			const sends = env.sandbox.requests.filter((request) => request.path.endsWith('/send'));
			expect(sends.length).toBeLessThanOrEqual(1.2 * 300);
		},
		60_000,
	);
});
