// The limiter models on their own (time passed in), then through the sandbox's HTTP front and CLI.
import { parseArgs } from './cli';
import { startSandbox, type Sandbox } from './index';
import { Limiter, type LimiterSettings } from './limiters';
import { call } from './test-helpers';

/** Admits one request at each time; true where admitted. */
function admitted(settings: LimiterSettings, times: number[]): boolean[] {
	const limiter = new Limiter(settings);
	return times.map((t) => limiter.admit(t) === null);
}

const range = (count: number, from: number, step: number) =>
	Array.from({ length: count }, (_, i) => from + i * step);

describe('limiter models', () => {
	it('sliding: at most N in any second, counted from each admitted request', () => {
		const result = admitted({ model: 'sliding', perSecond: 3 }, [500, 600, 700, 800, 1499, 1500]);
		expect(result).toEqual([true, true, true, false, false, true]);
	});

	it('fixed: N per clock-aligned second, so a burst across the boundary gets 2N in 0.2 s', () => {
		const result = admitted(
			{ model: 'fixed', perSecond: 3 },
			range(6, 900, 15).concat(range(4, 1000, 30)),
		);
		expect(result).toEqual([true, true, true, false, false, false, true, true, true, false]);
	});

	it('token bucket: a burst of `burst` at once, then only the refill rate', () => {
		const limiter = new Limiter({ model: 'tokenBucket', perSecond: 100, burst: 20 });
		const burst = range(30, 0, 0).map((t) => limiter.admit(t) === null);
		expect(burst.filter(Boolean)).toHaveLength(20);
		// 100 per second refills one token every 10 ms: one request every 10 ms passes, two do not.
		expect(limiter.admit(10)).toBeNull();
		expect(limiter.admit(15)?.waitMs).toBeCloseTo(5, 6);
		expect(range(100, 20, 10).every((t) => limiter.admit(t) === null)).toBe(true);
		expect(limiter.admit(1005)).not.toBeNull();
	});

	it('per minute: N x 60 per clock minute, then nothing until the next minute', () => {
		const limiter = new Limiter({ model: 'perMinute', perSecond: 1 });
		expect(range(60, 0, 10).every((t) => limiter.admit(t) === null)).toBe(true);
		const refusal = limiter.admit(30_000);
		expect(refusal).toEqual({ retryAfter: '30', waitMs: 30_000 });
		expect(limiter.admit(60_000)).toBeNull();
	});

	it('per minute with a shorter window: the quota scales with the window', () => {
		const limiter = new Limiter({ model: 'perMinute', perSecond: 2, quotaWindowMs: 10_000 });
		expect(range(20, 0, 10).every((t) => limiter.admit(t) === null)).toBe(true);
		expect(limiter.admit(4_000)).toEqual({ retryAfter: '6', waitMs: 6_000 });
		expect(limiter.admit(10_000)).toBeNull();
	});

	it('a limit that changes mid-run, counted from the first request', () => {
		const limiter = new Limiter({
			model: 'fixed',
			perSecond: 2,
			change: { afterMs: 2000, perSecond: 4 },
		});
		expect(range(4, 500, 10).map((t) => limiter.admit(t) === null)).toEqual([
			true,
			true,
			false,
			false,
		]);
		expect(limiter.perSecondAt(2499)).toBe(2);
		expect(limiter.perSecondAt(2500)).toBe(4);
		expect(range(5, 3000, 10).map((t) => limiter.admit(t) === null)).toEqual([
			true,
			true,
			true,
			true,
			false,
		]);
	});

	it('Retry-After: whole seconds of at least 1, none, or the hostile 0, -1 and a past date', () => {
		const refusal = (retryAfter: LimiterSettings['retryAfter'], at = 100_000) => {
			const limiter = new Limiter({ model: 'fixed', perSecond: 1, retryAfter });
			limiter.admit(at);
			return limiter.admit(at + 1)?.retryAfter;
		};
		expect(refusal('seconds')).toBe('1');
		expect(refusal('none')).toBeNull();
		expect(refusal('zero')).toBe('0');
		expect(refusal('negative')).toBe('-1');
		const past = refusal('pastDate', Date.parse('2026-01-01T00:00:00Z'));
		expect(past).toBe('Wed, 31 Dec 2025 23:59:00 GMT');
	});
});

describe('limiter models in the sandbox', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox();
	});
	afterAll(() => sb.stop());
	beforeEach(() => sb.reset());
	const senders = () => call(`${sb.chatUrl}/v1/phone_number_ids`);

	it('a token bucket of 3 refuses the 4th request at once, with the Retry-After asked for', async () => {
		sb.setOptions({
			rateLimitPerSecond: 1,
			rateLimitModel: 'tokenBucket',
			rateLimitBurst: 3,
			rateLimitRetryAfter: 'negative',
		});
		const answers = [];
		for (let i = 0; i < 4; i++) answers.push(await senders());
		expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
		expect(answers[3].headers.get('retry-after')).toBe('-1');
		expect(answers[3].body).toMatchObject({ error_code: 'rate_limited', status_code: 429 });
		expect(sb.requests.map((r) => r.status)).toEqual([200, 200, 200, 429]);
	});

	it('takes the quota window of the per-minute model from rateLimitQuotaWindowMs', async () => {
		// 0.005/s over a 10-minute window: a quota of 3, then a wait longer than any minute. Windows
		// align to the clock, so the sandbox's clock is moved to 1 s into one: run in a window's last
		// minute, the wait was shorter than a minute (it failed CI once), or the 4th request opened a
		// new window.
		const realNow = Date.now.bind(Date);
		const windowStart = Math.ceil(realNow() / 600_000) * 600_000;
		const offset = windowStart + 1_000 - realNow();
		const clock = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
		try {
			sb.setOptions({
				rateLimitPerSecond: 0.005,
				rateLimitModel: 'perMinute',
				rateLimitQuotaWindowMs: 600_000,
			});
			const answers = [];
			for (let i = 0; i < 4; i++) answers.push(await senders());
			expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
			expect(Number(answers[3].headers.get('retry-after'))).toBeGreaterThan(60);
			expect(() => sb.setOptions({ rateLimitQuotaWindowMs: 10 })).toThrow(/rateLimitQuotaWindowMs/);
		} finally {
			clock.mockRestore();
		}
	});

	it('sends no Retry-After when asked for none', async () => {
		sb.setOptions({
			rateLimitPerSecond: 1,
			rateLimitModel: 'perMinute',
			rateLimitRetryAfter: 'none',
		});
		const answers = [];
		for (let i = 0; i < 61; i++) answers.push(await senders());
		expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(60);
		const refused = answers.find((a) => a.status === 429);
		expect(refused?.headers.get('retry-after')).toBeNull();
	});

	it('refuses nonsense options, naming them', async () => {
		expect(() => sb.setOptions({ rateLimitModel: 'leaky' as never })).toThrow('rateLimitModel');
		expect(() => sb.setOptions({ rateLimitBurst: 0 })).toThrow('rateLimitBurst');
		expect(() => sb.setOptions({ rateLimitRetryAfter: 'never' as never })).toThrow(
			'rateLimitRetryAfter',
		);
		await expect(
			startSandbox({ rateLimitChange: { afterMs: 1000, perSecond: 0 } }),
		).rejects.toThrow('rateLimitChange');
	});

	it('reads the limiter flags', () => {
		expect(
			parseArgs([
				'--rate-limit=100',
				'--rate-limit-model',
				'tokenBucket',
				'--rate-limit-burst',
				'20',
				'--rate-limit-retry-after=pastDate',
				'--rate-limit-change-after',
				'10000',
				'--rate-limit-change-to',
				'50',
			]),
		).toEqual({
			chatPort: 4010,
			contactsPort: 4011,
			rateLimitPerSecond: 100,
			rateLimitModel: 'tokenBucket',
			rateLimitBurst: 20,
			rateLimitRetryAfter: 'pastDate',
			rateLimitChange: { afterMs: 10000, perSecond: 50 },
		});
	});
});
