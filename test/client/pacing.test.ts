import {
	DECREASE_FACTOR,
	DECREASE_GAP_MS,
	DISCOVERY_QUIET_MS,
	MIN_RATE,
	Pacer,
	QUIET_MS,
	SHARED_PAUSE_MS,
	STALE_AFTER_MS,
} from '../../nodes/SmsLeopard/client/http/pacing';
import { mulberry32 } from '../sandbox/faults';
import { Limiter, busiestWindow } from '../sandbox/limiters';
import { VirtualClock } from './limiter-simulation';

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

	it('never starts two calls closer than 1000 / requestsPerSecond, however late and uneven the timers', async () => {
		for (const seed of [1, 2, 3]) {
			const clock = virtualClock();
			const random = mulberry32(seed);
			// Late by 0 to 8 ms, differently each time: a late start may be followed by one on time.
			const unevenSleep = async (ms: number) => await clock.sleep(ms + 8 * random());
			const pacer = new Pacer(unevenSleep, { requestsPerSecond: 100, now: clock.now });
			const starts = await startTimes(pacer, clock, 500);
			const gaps = starts.slice(1).map((at, index) => at - starts[index]);
			// A gateway that counts the gap (nginx's limit_req without burst) refuses anything closer.
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(10);
		}
	});

	it('a share of a larger limit (a campaign worker): late timers are made up, and two starts are never closer than the whole limit allows', async () => {
		for (const seed of [1, 2, 3]) {
			const clock = virtualClock();
			const random = mulberry32(seed);
			// A busy process: every timer late by 0 to 2 ms, against a share's 4 ms between starts.
			const lateSleep = async (ms: number) => await clock.sleep(ms + 2 * random());
			const pacer = new Pacer(lateSleep, { now: clock.now });
			pacer.setRequestsPerSecond(250, 500);
			const starts = await startTimes(pacer, clock, 1000);
			const gaps = starts.slice(1).map((at, index) => at - starts[index]);
			expect(Math.min(...gaps)).toBeGreaterThanOrEqual(2);
			// 1,000 starts at 250 a second: 3,996 ms apart from first to last, each late start made
			// up. Counted from each actual start instead (the user's own limit), 1 ms lost a start.
			const span = starts[starts.length - 1] - starts[0];
			expect(span).toBeLessThanOrEqual(1.02 * 3996);
			// And never ahead of the share by more than the few starts it may make up.
			starts.forEach((at, index) => expect(at - starts[0]).toBeGreaterThanOrEqual(4 * index - 16));
		}
	});

	/** A share's timers, where the process is held (n8n's nodes of another batch) from `at` for `ms`. */
	function heldSleep(clock: Clock, holds: Array<{ at: number; ms: number }>) {
		const pending = [...holds];
		return async (ms: number) => {
			await clock.sleep(ms);
			while (pending.length > 0 && clock.now() >= pending[0].at) clock.advance(pending.shift()!.ms);
		};
	}

	/** Starts closer than a share of 245 a second allows: the ones made up. */
	function madeUpStarts(starts: number[]) {
		const gaps = starts.slice(1).map((at, index) => at - starts[index]);
		return gaps.filter((gap) => gap < 1000 / 245 - 1e-6).length;
	}

	it('a share held by other work for up to a second makes up the starts it missed, never more than its share in any second', async () => {
		const clock = virtualClock();
		const holds = [{ at: 2_000, ms: 700 }];
		const pacer = new Pacer(heldSleep(clock, holds), { now: clock.now });
		pacer.setRequestsPerSecond(245, 490);
		const starts = await startTimes(pacer, clock, 2_450);
		// 2,450 starts at 245 a second: 10 s from the first to the one after the last. Made up for
		// only 4 intervals, the hold cost its 0.7 s.
		expect(starts[starts.length - 1] - starts[0]).toBeLessThanOrEqual(10_000 + 250);
		// Made up at the whole limit's gap, and within the share in every second.
		const gaps = starts.slice(1).map((at, index) => at - starts[index]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 490 - 1e-9);
		expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(245);
	});

	it.each<[string, (clock: Clock, pacer: Pacer) => void]>([
		// Nobody waiting for 600 ms.
		['after a quiet moment (no caller waiting), however long', (clock) => clock.advance(600)],
		// Retry-After: 2 s, longer than a shared pause's threshold: every caller waits it out.
		['of a pause the service asked for', (_clock, pacer) => pacer.pause(2_000)],
	])('a share makes up nothing %s', async (_label, interrupt) => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, { now: clock.now });
		pacer.setRequestsPerSecond(245, 490);
		await startTimes(pacer, clock, 100);
		interrupt(clock, pacer);
		const after = await startTimes(pacer, clock, 100);
		// No run of starts at the whole limit's gap: at most the few late starts any share may make
		// up (4), then its own pace.
		expect(madeUpStarts(after)).toBeLessThanOrEqual(4);
	});

	it('a share whose made-up start is refused makes up nothing for a while, and keeps its rate', async () => {
		const clock = virtualClock();
		const holds = [
			{ at: 2_000, ms: 500 },
			{ at: 2_900, ms: 500 },
		];
		const pacer = new Pacer(heldSleep(clock, holds), { now: clock.now });
		pacer.setRequestsPerSecond(245, 490);
		const starts: number[] = [];
		let refused = 0;
		while (starts.length < 1_000) {
			const ticket = await pacer.wait();
			starts.push(ticket.startedAt);
			// A gateway keeping no window: it refuses the first start made up for the first hold.
			const refuse = refused === 0 && ticket.startedAt > 2_000 && ticket.madeUp === true;
			if (refuse) refused += 1;
			pacer.finished(ticket, refuse ? 'rateLimited' : 'answered');
		}
		expect(refused).toBe(1);
		expect(pacer.adaptiveRate).toBeUndefined();
		// The second hold, within the pause, is not made up: nothing after it comes closer than
		// the share's interval, but for the few late starts any share may make up.
		expect(madeUpStarts(starts.filter((at) => at > 3_300))).toBeLessThanOrEqual(4);
	});

	it("the same share as the user's own limit (no larger one) keeps the whole interval from each start", async () => {
		const clock = virtualClock();
		const lateSleep = async (ms: number) => await clock.sleep(ms + 1);
		const pacer = new Pacer(lateSleep, { now: clock.now });
		pacer.setRequestsPerSecond(250, 250);
		const starts = await startTimes(pacer, clock, 100);
		const gaps = starts.slice(1).map((at, index) => at - starts[index]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(4);
	});

	it('without a limit and before any 429, lets calls through with no spacing', async () => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, { requestsPerSecond: 0, now: clock.now });
		await startTimes(pacer, clock, 5);
		expect(clock.sleeps).toEqual([]);
		expect(pacer.adaptiveRate).toBeUndefined();
	});

	describe('Retry-After waits', () => {
		it('a long one (a quota or a window) holds every caller back', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			pacer.pause(SHARED_PAUSE_MS + 500);
			await pacer.wait();
			expect(clock.now()).toBe(1000 + SHARED_PAUSE_MS + 500);
		});

		it('a short one holds back only the refused call: slowing down is enough for the rest', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			pacer.pause(SHARED_PAUSE_MS);
			await pacer.wait();
			expect(clock.now()).toBe(1000);
		});
	});

	describe('adapting the rate (AIMD)', () => {
		it('on a 429, slows to a share of the rate the service had accepted in the second before', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 100, 2); // 100 calls in 200 ms, all accepted
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 100, 6);
			const starts = await startTimes(pacer, clock, 3);
			expect(starts[1] - starts[0]).toBeCloseTo(1000 / (DECREASE_FACTOR * 100), 6);
		});

		it('under Max Requests per Second, a 429 in the first second measures the time there was, not a whole second', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 90, now: clock.now });
			// Five calls paced at 90 a second, all accepted, then a refusal 56 ms into the run: that
			// is 90 a second, not the 5 a second that counting over a whole second says.
			await answeredCalls(pacer, clock, 5, 2);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 90, 6);
		});

		it('that guess is corrected by the next refusal at once: the setting above a window filled early', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 150, now: clock.now });
			// A window of 100 a second, filled in 660 ms at 150 a second: the guess says 150.
			await answeredCalls(pacer, clock, 100, 2);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 150, 6);
			// The window still full: the next call is refused too, and the second count (100) rules.
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 100, 6);
		});

		it('without the setting, an opening refusal still measures what the second counted', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			// Five calls at once, unpaced: a burst the gateway let through says nothing of its rate.
			await answeredCalls(pacer, clock, 5, 0);
			clock.advance(50);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 5, 6);
		});

		it('slows down once for the calls already under way, and at most once a second', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 50, 2);
			const inFlight = await Promise.all([pacer.wait(), pacer.wait(), pacer.wait()]);
			for (const ticket of inFlight) pacer.finished(ticket, 'rateLimited');
			const once = pacer.adaptiveRate;
			expect(once).toBeCloseTo(DECREASE_FACTOR * 50, 6);
			// Started after the decrease but within the second: a fixed window still full, say nothing new.
			clock.advance(DECREASE_GAP_MS - 100);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBe(once);
			clock.advance(200);
			pacer.finished(await pacer.wait(), 'rateLimited');
			expect(pacer.adaptiveRate).toBeLessThan(once!);
		});

		it('after quiet periods, climbs quickly back to the last rate known to pass, then creeps', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 100, 2);
			pacer.finished(await pacer.wait(), 'rateLimited'); // 95/s, known to pass
			clock.advance(1500);
			pacer.finished(await pacer.wait(), 'rateLimited'); // nothing accepted since: 90.25/s
			const low = pacer.adaptiveRate!;
			expect(low).toBeCloseTo(DECREASE_FACTOR * DECREASE_FACTOR * 100, 6);
			const rates: number[] = [];
			for (let i = 0; i < 6; i++) {
				clock.advance(QUIET_MS);
				pacer.finished(await pacer.wait(), 'answered');
				rates.push(pacer.adaptiveRate!);
			}
			expect(rates[0]).toBeCloseTo(DECREASE_FACTOR * 100, 6); // recovered in one step
			// Then small steps, growing only once past the last limit seen (100/s).
			const steps = rates.slice(1).map((rate, i) => rate - rates[i]);
			expect(steps[0]).toBeLessThan(0.05 * 100);
			expect(rates.every((rate, i) => i === 0 || rate > rates[i - 1])).toBe(true);
		});

		it('after 2 s with no refusal, searches every quarter second, however close to the last limit', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 100, 2);
			pacer.finished(await pacer.wait(), 'rateLimited'); // 95/s
			clock.advance(1500);
			pacer.finished(await pacer.wait(), 'rateLimited'); // a limit measured over paced sending
			const refusedAt = clock.now();
			/** The adaptive rate after a call answered `ms` after the last refusal. */
			const rateAnsweredAt = async (ms: number) => {
				const ticket = await pacer.wait();
				clock.advance(refusedAt + ms - clock.now());
				pacer.finished(ticket, 'answered');
				return pacer.adaptiveRate!;
			};
			const recovered = await rateAnsweredAt(QUIET_MS); // back to 95/s, well under 1.1 x 100
			// Before 2 s, a quarter second after the last step is too soon...
			expect(await rateAnsweredAt(QUIET_MS + DISCOVERY_QUIET_MS + 5)).toBe(recovered);
			const stepped = await rateAnsweredAt(2 * QUIET_MS + 10);
			expect(stepped).toBeGreaterThan(recovered);
			// ...after it, a quarter second is enough: the other caller of this account may be gone.
			expect(STALE_AFTER_MS).toBeLessThanOrEqual(2 * QUIET_MS);
			expect(await rateAnsweredAt(2 * QUIET_MS + DISCOVERY_QUIET_MS + 20)).toBeGreaterThan(stepped);
		});

		// Ten callers sleep on the adaptive interval while answers come in; each answer after a quiet
		// period raises the rate. A caller asleep through a rise was counted from the due time under
		// the new, shorter interval, as if its timer had fired that much late: it started, and the
		// next caller 2-8 ms after it, a burst that a gateway allowing none (nginx's limit_req without
		// burst) refused at every step up (token bucket of 1 at 100/s: 2.5 x the ideal time).
		it('a caller asleep through a rise of the rate owes nothing: no two starts closer than the interval', async () => {
			const clock = new VirtualClock(1_000);
			const pacer = new Pacer(clock.sleep, { parallelCalls: 10, now: () => clock.now });
			const gateway = new Limiter({ model: 'sliding', perSecond: 60 });
			const starts: Array<{ at: number; intervalMs: number }> = [];
			let rises = 0;
			const caller = async () => {
				while (clock.now < 6_000) {
					const ticket = await pacer.wait();
					starts.push({ at: ticket.startedAt, intervalMs: pacer.intervalMs });
					const refused = gateway.admit(ticket.startedAt) !== null;
					await clock.sleep(20);
					const before = pacer.adaptiveRate;
					pacer.finished(ticket, refused ? 'rateLimited' : 'answered');
					if (before !== undefined && (pacer.adaptiveRate ?? Infinity) > before) rises += 1;
				}
			};
			await clock.run(Promise.all(Array.from({ length: 10 }, caller)));
			// The run rose many times under the adaptive rate, with timers on time: nothing is owed.
			expect(rises).toBeGreaterThan(5);
			const pacedFrom = starts.find((start) => start.intervalMs > 5)!.at;
			const paced = starts.filter(({ at }) => at >= pacedFrom);
			const short = paced
				.slice(1)
				.filter(({ at, intervalMs }, index) => at - paced[index].at < intervalMs - 1e-9);
			expect(short).toEqual([]);
		});

		it('a call accepted within the quiet period does not speed up', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			await answeredCalls(pacer, clock, 40, 2);
			pacer.finished(await pacer.wait(), 'rateLimited');
			const rate = pacer.adaptiveRate;
			clock.advance(DISCOVERY_QUIET_MS - 10);
			pacer.finished(await pacer.wait(), 'answered');
			expect(pacer.adaptiveRate).toBe(rate);
		});

		it('never goes faster than Max Requests per Second, and never slower than MIN_RATE', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 2, now: clock.now });
			await answeredCalls(pacer, clock, 4, 1);
			expect(pacer.intervalMs).toBe(500);
			pacer.finished(await pacer.wait(), 'rateLimited');
			for (let i = 0; i < 40; i++) {
				clock.advance(DECREASE_GAP_MS);
				pacer.finished(await pacer.wait(), 'rateLimited');
			}
			expect(pacer.adaptiveRate).toBe(MIN_RATE);
			expect(pacer.intervalMs).toBe(1000 / MIN_RATE);
		});

		it('applies a slower rate to the very next call, not after every caller already queued', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 100, now: clock.now });
			await answeredCalls(pacer, clock, 5, 1);
			const first = await pacer.wait();
			// Ten callers queue at 10 ms spacing; the first call is then refused, again and again.
			const queued = Array.from({ length: 10 }, () => pacer.wait());
			for (let i = 0; i < 40; i++) {
				clock.advance(DECREASE_GAP_MS);
				pacer.finished(first, 'rateLimited');
			}
			await Promise.all(queued);
			expect(clock.sleeps.some((ms) => ms > 10)).toBe(true);
		});

		it('a 429 that overtakes the answers of calls started before it waits for them to measure the rate', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			const accepted = await Promise.all(Array.from({ length: 20 }, () => pacer.wait()));
			const refused = await pacer.wait();
			clock.advance(5);
			pacer.finished(accepted[0], 'answered');
			// The gateway's 429 comes back before the other 19 sends' answers.
			pacer.finished(refused, 'rateLimited');
			expect(pacer.adaptiveRate).toBeUndefined();
			clock.advance(15);
			for (const ticket of accepted.slice(1)) pacer.finished(ticket, 'answered');
			// 20 accepted in the second before the refused start, not the 1 answered by then.
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 20, 6);
		});

		it('a call that never answers holds a decrease back for a second at most', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			const accepted = await Promise.all(Array.from({ length: 10 }, () => pacer.wait()));
			const refused = await pacer.wait();
			clock.advance(20);
			for (const ticket of accepted.slice(1)) pacer.finished(ticket, 'answered');
			pacer.finished(refused, 'rateLimited');
			expect(pacer.adaptiveRate).toBeUndefined();
			// accepted[0] hangs; other calls go on answering.
			clock.advance(1_000);
			pacer.finished(await pacer.wait(), 'answered');
			// Measured without it: the 9 that answered.
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 9, 6);
		});

		it('connection failures and refusals do not count as accepted calls', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { now: clock.now });
			for (let i = 0; i < 30; i++) pacer.finished(await pacer.wait(), 'noAnswer');
			pacer.finished(await pacer.wait(), 'rateLimited');
			// Nothing accepted, nothing measured: the refused call's backoff does the waiting.
			expect(pacer.adaptiveRate).toBeUndefined();
		});
	});

	describe('under a share of a larger limit (a campaign worker: 245 a second of 490)', () => {
		/** `count` calls answered at once, then the process held (or idle) `thenMs`. */
		async function callsThen(pacer: Pacer, clock: Clock, count: number, thenMs: number) {
			const starts = await answeredCalls(pacer, clock, count, 0);
			clock.advance(thenMs);
			return starts;
		}
		/** Starts in the second before `at`: what the service accepted, as the pacer counts it. */
		const inSecondBefore = (starts: number[], at: number) =>
			starts.filter((start) => start <= at && at - start < 1000).length;
		/** The next call refused; returns what the second before it accepted. */
		async function refusedAfter(pacer: Pacer, starts: number[]) {
			const refused = await pacer.wait();
			const accepted = inSecondBefore(starts, refused.startedAt);
			pacer.finished(refused, 'rateLimited');
			return accepted;
		}

		function sharePacer() {
			const clock = virtualClock();
			// 20 in parallel, as the shipped batch workflows: one refusal is not every caller's.
			const pacer = new Pacer(clock.sleep, { now: clock.now, parallelCalls: 20 });
			pacer.setRequestsPerSecond(245, 490);
			return { clock, pacer };
		}

		it('a refusal within the share lowers the rate to 0.95 x the share, not to what a held second accepted', async () => {
			const { clock, pacer } = sharePacer();
			// 2 s at the share, then the process held 300 ms: that second accepted 172.
			const accepted = await refusedAfter(pacer, await callsThen(pacer, clock, 490, 300));
			expect(accepted).toBeLessThan(0.75 * 245);
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 245, 6);
		});

		it('a refusal again within 5 s measures what was accepted, and for 30 s after that measure no floor applies', async () => {
			const { clock, pacer } = sharePacer();
			await refusedAfter(pacer, await callsThen(pacer, clock, 490, 0));
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 245, 6);
			// 3 s later: 60 accepted in the second before the next refusal, measured as they are
			// (idle 2.5 s first, so the pacer owes nothing and the refused call is not one made up).
			clock.advance(2500);
			let accepted = await refusedAfter(pacer, await callsThen(pacer, clock, 60, 0));
			expect(accepted).toBe(60);
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * 60, 6);
			// 6 s later still measured: a limit under the share was found less than 30 s ago.
			clock.advance(6000);
			expect(await refusedInMadeUpPause(pacer, clock)).toBe('measured');
			// 31 s after that, the floor again.
			clock.advance(31_000);
			expect(await refusedInMadeUpPause(pacer, clock)).toBe('floored');
		});

		/**
		 * With the adaptive rate under the share, the pacer runs behind its share's schedule and counts
		 * every start as made up, whose refusal pauses the making up instead of lowering the rate. So:
		 * a made-up start refused, then, while that pause lasts, a start refused after 5 accepted;
		 * whether its decrease measured those 5 or took the share as the floor.
		 */
		async function refusedInMadeUpPause(pacer: Pacer, clock: Clock) {
			const madeUp = await callsThen(pacer, clock, 3, 0);
			const ticket = await pacer.wait();
			expect(ticket.madeUp).toBe(true);
			pacer.finished(ticket, 'rateLimited');
			const starts = await callsThen(pacer, clock, 5, 0);
			const refused = await pacer.wait();
			expect(refused.madeUp).toBeUndefined();
			const accepted = inSecondBefore([...madeUp, ...starts], refused.startedAt);
			const rateBefore = pacer.adaptiveRate!;
			pacer.finished(refused, 'rateLimited');
			if (pacer.adaptiveRate === DECREASE_FACTOR * Math.min(rateBefore, accepted))
				return 'measured';
			if (pacer.adaptiveRate === DECREASE_FACTOR * Math.min(rateBefore, 245)) return 'floored';
			return `neither: ${pacer.adaptiveRate} from ${rateBefore}, ${accepted} accepted`;
		}

		it("without a share (the user's own limit), a refusal measures what was accepted, as before", async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { requestsPerSecond: 245, now: clock.now });
			const accepted = await refusedAfter(pacer, await callsThen(pacer, clock, 490, 300));
			expect(pacer.adaptiveRate).toBeCloseTo(DECREASE_FACTOR * accepted, 6);
			expect(accepted).toBeLessThan(0.75 * 245);
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

		it('keeps to the spread when every timer fires a millisecond late, as in a busy process', async () => {
			const clock = virtualClock();
			const lateSleep = async (ms: number) => await clock.sleep(ms + 1);
			const late = new Pacer(lateSleep, { parallelCalls: 10, now: clock.now });
			await answeredCalls(late, clock, 5, 20);
			const starts = await startTimes(late, clock, 101);
			// 100 spreads of 1.8 ms; counted from each late start instead, 100 × 2.8 ms.
			expect(starts[100] - starts[0]).toBeLessThan(100 * 1.8 + 2);
			// And no burst: no two starts closer than the spread less the lateness made up.
			const gaps = starts.slice(1).map((at, index) => at - starts[index]);
			expect(Math.min(...gaps)).toBeGreaterThan(0.7);
		});

		it('owes nothing after a quiet moment: the next calls are spread, not sent together', async () => {
			const clock = virtualClock();
			const pacer = new Pacer(clock.sleep, { parallelCalls: 10, now: clock.now });
			await answeredCalls(pacer, clock, 5, 20);
			await startTimes(pacer, clock, 3);
			clock.advance(1_000);
			const starts = await startTimes(pacer, clock, 3);
			expect(starts[1] - starts[0]).toBeCloseTo(1.8, 6);
			expect(starts[2] - starts[1]).toBeCloseTo(1.8, 6);
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
