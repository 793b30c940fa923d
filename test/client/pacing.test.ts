import {
	LEARNED_RATE_MARGIN,
	MIN_CALLS_TO_LEARN,
	Pacer,
} from '../../nodes/SmsLeopard/client/pacing';

/** A virtual clock: sleeping moves time forward, so the test measures spacing without waiting. */
function virtualClock() {
	let now = 1_000;
	const sleeps: number[] = [];
	return {
		now: () => now,
		advance: (ms: number) => {
			now += ms;
		},
		sleep: async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		},
		sleeps,
	};
}

type Clock = ReturnType<typeof virtualClock>;

/** `count` calls one after another, each answered `roundTripMs` after it started. */
async function answeredCalls(pacer: Pacer, clock: Clock, count: number, roundTripMs: number) {
	const starts: number[] = [];
	for (let i = 0; i < count; i++) {
		const ticket = await pacer.wait();
		starts.push(ticket.startedAt);
		clock.advance(roundTripMs);
		pacer.finished(ticket, 'answered');
	}
	return starts;
}

async function startTimes(pacer: Pacer, clock: Clock, count: number) {
	const starts: number[] = [];
	for (let i = 0; i < count; i++) {
		await pacer.wait();
		starts.push(clock.now());
	}
	return starts;
}

describe('Pacer', () => {
	it('spaces calls at 1000 / requestsPerSecond', async () => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, { requestsPerSecond: 4, now: clock.now });
		expect(await startTimes(pacer, clock, 5)).toEqual([1000, 1250, 1500, 1750, 2000]);
	});

	it('without a limit, lets calls through until a 429 pause, then holds everyone back', async () => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, { requestsPerSecond: 0, now: clock.now });
		await pacer.wait();
		await pacer.wait();
		expect(clock.sleeps).toEqual([]);
		pacer.pause(1500);
		await pacer.wait();
		expect(clock.now()).toBe(2500);
	});

	describe('learning the limit from a 429', () => {
		it('keeps, from then on, under the rate the service had accepted in the second before', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			// 100 calls in 200 ms, all accepted, then one refused.
			await answeredCalls(pacer, clock, 100, 2);
			const refused = await pacer.wait();
			pacer.finished(refused, 'rateLimited');

			const expected = 1000 / (LEARNED_RATE_MARGIN * 100);
			expect(pacer.intervalMs).toBeCloseTo(expected, 6);
			const starts = await startTimes(pacer, clock, 3);
			expect(starts[1] - starts[0]).toBeCloseTo(expected, 6);
			expect(starts[2] - starts[1]).toBeCloseTo(expected, 6);
		});

		it('learns nothing from a 429 when too few calls were accepted to tell a rate', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, MIN_CALLS_TO_LEARN - 1, 2);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.intervalMs).toBe(0);
		});

		it('counts only the calls accepted in the second before the refused one started', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 50, 2); // 1000..1100
			clock.advance(1500);
			await answeredCalls(pacer, clock, 20, 10); // 2600..2800, the only ones within a second
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.intervalMs).toBeCloseTo(1000 / (LEARNED_RATE_MARGIN * 20), 6);
		});

		it('never undercuts a limit the user set', async () => {
			const clock = virtualClock();
			// The user's 50 per second, but the service refuses at 40 in a second: 38 per second from then on.
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 50, now: clock.now });
			await answeredCalls(pacer, clock, 40, 1);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.intervalMs).toBeCloseTo(1000 / (LEARNED_RATE_MARGIN * 40), 6);

			// The user's 2 per second and a 429 anyway (another client on the account): still 500 ms.
			const slow = new Pacer(clock.sleep, { requestsPerSecond: 2, now: clock.now });
			await answeredCalls(slow, clock, 12, 1);
			slow.finished(await slow.wait(), 'rateLimited');
			expect(slow.intervalMs).toBe(500);
		});

		it('connection failures and refusals do not count as accepted calls', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			for (let i = 0; i < 30; i++) pacer.finished(await pacer.wait(), 'noAnswer');
			for (let i = 0; i < 30; i++) pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.intervalMs).toBe(0);
		});
	});

	describe('spreading parallel calls over the round trip', () => {
		it('starts calls 0.9 x round trip / parallel calls apart once round trips are known', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { parallelCalls: 10, now: clock.now });
			await answeredCalls(pacer, clock, 5, 20);
			expect(pacer.intervalMs).toBeCloseTo(1.8, 6);
			const starts = await startTimes(pacer, clock, 3);
			expect(starts[1] - starts[0]).toBeCloseTo(1.8, 6);
		});

		it('follows the median round trip, so one slow call does not slow the rest', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { parallelCalls: 10, now: clock.now });
			await answeredCalls(pacer, clock, 9, 20);
			await answeredCalls(pacer, clock, 1, 5_000);
			expect(pacer.intervalMs).toBeCloseTo(1.8, 6);
		});

		it('never spreads calls more than 100 ms apart, and not at all for one call at a time', async () => {
			const clock = virtualClock();
			const slow = new Pacer(clock.sleep, { parallelCalls: 2, now: clock.now });
			await answeredCalls(slow, clock, 3, 10_000);
			expect(slow.intervalMs).toBe(100);

			const single = new Pacer(clock.sleep, { parallelCalls: 1, now: clock.now });
			await answeredCalls(single, clock, 3, 20);
			expect(single.intervalMs).toBe(0);
		});
	});
});
