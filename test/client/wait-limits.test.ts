// The sleep the client uses is safe for any length: waits beyond a timer's range (2^31 - 1 ms) are
// slept in parts a timer holds, never handed to one timer (which would fire after 1 ms). The clock
// here is the recorded waits: no real time passes.
import { SmsLeopardClient, SmsLeopardValidationError } from '../../nodes/SmsLeopard/client';
import { MAX_TIMER_MS, boundedSleep } from '../../nodes/SmsLeopard/client/http/wait-limits';

function recordingSleep() {
	const waits: number[] = [];
	return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('boundedSleep', () => {
	it.each([1e15, MAX_TIMER_MS + 1, 3 * MAX_TIMER_MS])(
		'sleeps %d ms in parts no timer overflows, adding up to the whole wait',
		async (ms) => {
			const { waits, sleep } = recordingSleep();
			await boundedSleep(sleep)(ms);
			expect(waits.every((part) => part > 0 && part <= MAX_TIMER_MS)).toBe(true);
			expect(waits.reduce((sum, part) => sum + part, 0)).toBe(ms);
		},
	);

	it('passes a wait within range on as one timer', async () => {
		const { waits, sleep } = recordingSleep();
		await boundedSleep(sleep)(1500);
		expect(waits).toEqual([1500]);
	});

	it.each([0, -5, Number.NaN, -Infinity])('treats %d as no wait', async (ms) => {
		const { waits, sleep } = recordingSleep();
		await boundedSleep(sleep)(ms);
		expect(waits).toEqual([0]);
	});

	it('refuses an endless wait instead of waiting for ever', async () => {
		const { waits, sleep } = recordingSleep();
		await expect(boundedSleep(sleep)(Infinity)).rejects.toThrow(/endless wait/);
		expect(waits).toEqual([]);
	});
});

describe('client settings that would make waits beyond a timer', () => {
	const build = (settings: { requestsPerSecond?: number; timeoutMs?: number }) => () =>
		new SmsLeopardClient({
			transport: { request: async () => ({ status: 200, headers: {}, body: {} }) },
			sleep: async () => undefined,
			...settings,
		});

	it.each([1e-7, 0.000999])('refuses requestsPerSecond %d, naming the field', (rate) => {
		expect(build({ requestsPerSecond: rate })).toThrow(SmsLeopardValidationError);
		expect(build({ requestsPerSecond: rate })).toThrow(/requestsPerSecond.*at least 0\.001/);
	});

	it('refuses a timeout beyond a day', () => {
		expect(build({ timeoutMs: 86_400_001 })).toThrow(/timeoutMs.*a day/);
	});

	it.each([0, 0.001, 1000])('accepts requestsPerSecond %d', (rate) => {
		expect(build({ requestsPerSecond: rate })).not.toThrow();
	});
});

describe('the client waits through the bounded sleep', () => {
	// The pacer holds every caller until a long Retry-After has passed, reading the clock: each wait
	// moves jest's fake clock on by its length.
	beforeEach(() =>
		jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }),
	);
	afterEach(() => jest.useRealTimers());

	it('a 30-day Retry-After within the budget is waited in parts a timer holds', async () => {
		const waits: number[] = [];
		const sleep = async (ms: number) => {
			waits.push(ms);
			if (waits.length > 1000) throw new Error('spinning');
			jest.setSystemTime(Date.now() + ms);
		};
		let calls = 0;
		const client = new SmsLeopardClient({
			transport: {
				request: async () =>
					calls++ === 0
						? { status: 429, headers: { 'retry-after': String(30 * 86_400) }, body: {} }
						: { status: 200, headers: {}, body: { balance: 12.5, currency: 'KES' } },
			},
			sleep,
			retry: { maxTotalWaitMs: 40 * 86_400_000 },
		});
		expect((await client.getBalance()).balance).toBe(12.5);
		expect(calls).toBe(2);
		expect(waits.every((part) => part <= MAX_TIMER_MS)).toBe(true);
		expect(waits.reduce((sum, part) => sum + part, 0)).toBeGreaterThanOrEqual(30 * 86_400_000);
	});
});
