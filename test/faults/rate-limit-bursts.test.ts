// Bursts of 429 (Retry-After: 1) are waited out: every item gets through, exactly once.
import { SmsLeopardRateLimitError } from '../../nodes/SmsLeopard/client';
import { DEFAULT_RETRY } from '../../nodes/SmsLeopard/client/http/retry';
import {
	type FaultEnv,
	caught,
	destination,
	sendAttempts,
	sendCount,
	sendTo,
	startFaultEnv,
} from './fault-env';

let env: FaultEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

describe('burst429', () => {
	it('is waited out by concurrent sends: each destination sent exactly once', async () => {
		env.sandbox.setOptions({ burst429: 6 });
		const client = env.client();
		const targets = Array.from({ length: 12 }, (_, i) => destination(100 + i));
		const started = Date.now();
		const results = await Promise.all(targets.map((to) => sendTo(client, to)));
		const elapsed = Date.now() - started;
		expect(results.map((r) => r.recipients[0].number)).toEqual(targets);
		for (const to of targets) expect(sendCount(env.sandbox, to)).toBe(1);
		expect(env.sandbox.requests.filter((r) => r.fault === 'burst429')).toHaveLength(6);
		expect(sendAttempts(env.sandbox)).toHaveLength(12);
		// The Retry-After of 1 s was honoured, once (the burst hit the first wave only).
		expect(elapsed).toBeGreaterThanOrEqual(950);
		expect(elapsed).toBeLessThan(4000);
	});

	it('is waited out by a single send hit twice in a row, sent once', async () => {
		env.sandbox.setOptions({ burst429: 2 });
		const to = destination(200);
		const result = await sendTo(env.client(), to);
		expect(result.recipients[0].number).toBe(to);
		expect(env.sandbox.requests.map((r) => r.status)).toEqual([429, 429, 200]);
		expect(sendCount(env.sandbox, to)).toBe(1);
	});

	it('is waited out by reads across pages, every group read once', async () => {
		env.sandbox.setOptions({ burst429: 1 });
		const groups = await env.client().getAllGroups({ per: 10 });
		expect(groups.map((g) => g.id)).toEqual(env.sandbox.state.groups.map((g) => g.id));
	});

	it('ends in a rate-limit error, nothing sent, when the wait budget is too small', async () => {
		env.sandbox.setOptions({ burst429: 3 });
		const to = destination(300);
		const error = await caught<SmsLeopardRateLimitError>(() =>
			sendTo(env.client({ retry: { maxTotalWaitMs: 500 } }), to),
		);
		expect(error).toBeInstanceOf(SmsLeopardRateLimitError);
		expect(error.retryAfterMs).toBe(1000);
		expect(error.status).toBe(429);
		expect(sendCount(env.sandbox, to)).toBe(0);
		expect(env.sandbox.requests).toHaveLength(1);
	});

	it('ends in a rate-limit error once the wait budget is spent (429 waits are bound by time)', async () => {
		env.sandbox.setOptions({ burst429: 10 });
		const error = await caught<SmsLeopardRateLimitError>(() =>
			env.client({ retry: { maxRetries: 0, maxTotalWaitMs: 1500 } }).listSenderNumbers(),
		);
		expect(error).toBeInstanceOf(SmsLeopardRateLimitError);
		// One wait of Retry-After (1 s) fits the budget, a second does not: two requests in all.
		expect(env.sandbox.requests).toHaveLength(2);
	});

	// A gateway that keeps refusing with Retry-After 0, -1, a past date or none must not be hammered:
	// every 429 waits at least a growing backoff, and the wait budget ends it. Before, Retry-After 0
	// meant zero waits, so the budget was never spent: thousands of requests for one item.
	it.each([['0'], ['-1'], ['Wed, 21 Oct 2015 07:28:00 GMT'], [null]])(
		'Retry-After %p: waits a growing backoff each time and gives up at the wait budget',
		async (retryAfter) => {
			env.sandbox.setOptions({ burst429: 100_000, burst429RetryAfter: retryAfter });
			const error = await caught<SmsLeopardRateLimitError>(() =>
				// The production backoff (DEFAULT_RETRY), not this file's 5 ms one.
				env.client({ retry: { ...DEFAULT_RETRY, maxTotalWaitMs: 2000 } }).listSenderNumbers(),
			);
			expect(error).toBeInstanceOf(SmsLeopardRateLimitError);
			const times = env.sandbox.requests.map((request) => request.receivedAt);
			// Backoffs of 250-500, 500-1000, 1000-2000 ms fit a 2 s budget at most three times.
			expect(times.length).toBeGreaterThanOrEqual(2);
			expect(times.length).toBeLessThanOrEqual(4);
			const gaps = times.slice(1).map((time, index) => time - times[index]);
			for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(200);
		},
	);

	it('Retry-After 0 for a short burst: still sent exactly once', async () => {
		env.sandbox.setOptions({ burst429: 2, burst429RetryAfter: '0' });
		const to = destination(400);
		const result = await sendTo(env.client(), to);
		expect(result.recipients[0].number).toBe(to);
		expect(env.sandbox.requests.map((r) => r.status)).toEqual([429, 429, 200]);
		expect(sendCount(env.sandbox, to)).toBe(1);
	});
});
