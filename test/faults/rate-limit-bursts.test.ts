// Bursts of 429 (Retry-After: 1) are waited out: every item gets through, exactly once.
import { SmsLeopardRateLimitError } from '../../nodes/SmsLeopard/client';
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
});
