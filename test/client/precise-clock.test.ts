/**
 * The clock pacing uses inside n8n (client/http/precise-clock.ts). Under Max Requests per Second each
 * start waits for the previous one plus the interval, so time lost to a whole-millisecond clock is
 * never made up: at 245 a second, 195 went out with Date.now.
 */
import { BRIEF_WAIT_MAX_MS, Pacer } from '../../nodes/SmsLeopard/client/http/pacing';
import { preciseNow, waitInPlace } from '../../nodes/SmsLeopard/client/http/precise-clock';
import { mulberry32 } from '../sandbox/faults';

/**
 * 245 paced starts where a timer lasts at least 1 ms and ends a tenth of a millisecond late, the
 * time read through `read`: the time from the first start to the last.
 */
async function spanOf245(read: (time: number) => number): Promise<number> {
	let time = 1_000_000.25;
	const pacer = new Pacer(
		async (ms) => {
			time += Math.max(ms, 1) + 0.1;
		},
		{ requestsPerSecond: 245, now: () => read(time) },
	);
	const starts: number[] = [];
	for (let index = 0; index < 245; index++) starts.push((await pacer.wait()).startedAt);
	const gaps = starts.slice(1).map((at, index) => at - starts[index]);
	expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 245 - 1e-9);
	return starts[244] - starts[0];
}

describe('precise clock for pacing', () => {
	it('reads the same time as Date.now, with the fraction of a millisecond', () => {
		const readings = Array.from({ length: 200 }, () => [preciseNow(), Date.now()]);
		for (const [precise, whole] of readings) expect(Math.abs(precise - whole)).toBeLessThan(50);
		expect(readings.some(([precise]) => !Number.isInteger(precise))).toBe(true);
	});

	it('245 a second: read with fractions, 245 starts take a second; read in whole ms, a fifth longer', async () => {
		const precise = await spanOf245((time) => time);
		const whole = await spanOf245((time) => Math.floor(time));
		console.log(`245 starts: ${precise.toFixed(1)} ms with fractions, ${whole} ms in whole ms`);
		expect(precise).toBeLessThan(1000 * 1.05);
		expect(whole).toBeGreaterThan(1000 * 1.15);
	});
});

/**
 * 245 paced starts where a timer lasts at least 1 ms and ends anywhere from 0.9 ms early to 0.3 ms
 * late (libuv times timers by a coarse clock, so one ends a fraction early by a fine clock), with or
 * without the pacer's wait in place for the last fraction: the span, and the waits in place.
 */
async function coarseTimerRun(seed: number, inPlace: boolean) {
	const random = mulberry32(seed);
	let time = 1_000_000.25;
	const waitsInPlace: number[] = [];
	const pacer = new Pacer(
		async (ms) => {
			time = Math.max(time + 0.05, time + Math.max(ms, 1) - 0.9 + 1.2 * random());
		},
		{
			requestsPerSecond: 245,
			now: () => time,
			waitBriefly: inPlace
				? (ms) => {
						waitsInPlace.push(ms);
						time += ms + 0.01;
					}
				: undefined,
		},
	);
	const starts: number[] = [];
	for (let index = 0; index < 245; index++) starts.push((await pacer.wait()).startedAt);
	const gaps = starts.slice(1).map((at, index) => at - starts[index]);
	return { span: starts[244] - starts[0], minGap: Math.min(...gaps), waitsInPlace };
}

describe('the last fraction before a start, waited in place', () => {
	it.each([[1], [2], [3]])(
		'timers ending a fraction early (seed %i): 245 starts in about a second, never closer than the interval; with timers alone, 7 %% longer or more',
		async (seed) => {
			const inPlace = await coarseTimerRun(seed, true);
			const timersOnly = await coarseTimerRun(seed, false);
			console.log(
				`245 starts: ${inPlace.span.toFixed(1)} ms waiting in place (${inPlace.waitsInPlace.length} waits), ${timersOnly.span.toFixed(1)} ms with timers alone`,
			);
			for (const run of [inPlace, timersOnly])
				expect(run.minGap).toBeGreaterThanOrEqual(1000 / 245 - 1e-9);
			expect(inPlace.span).toBeLessThan(1000 * 1.02);
			expect(timersOnly.span).toBeGreaterThan(1000 * 1.07);
			expect(inPlace.waitsInPlace.length).toBeGreaterThan(0);
			expect(Math.max(...inPlace.waitsInPlace)).toBeLessThanOrEqual(BRIEF_WAIT_MAX_MS);
		},
	);

	it('a wait in place that did not move the clock falls back to a timer: no endless loop', async () => {
		let time = 5_000.5;
		let timers = 0;
		const pacer = new Pacer(
			async (ms) => {
				timers += 1;
				time += Math.max(ms, 1) - 0.5;
			},
			{ requestsPerSecond: 245, now: () => time, waitBriefly: () => undefined },
		);
		const starts: number[] = [];
		for (let index = 0; index < 20; index++) starts.push((await pacer.wait()).startedAt);
		expect(timers).toBeGreaterThanOrEqual(19);
		const gaps = starts.slice(1).map((at, index) => at - starts[index]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 245 - 1e-9);
	});

	it('waits in place for the time asked, never longer than BRIEF_WAIT_MAX_MS, and returns at once for none', () => {
		const before = preciseNow();
		waitInPlace(0.5);
		const half = preciseNow() - before;
		expect(half).toBeGreaterThanOrEqual(0.5);
		const start = preciseNow();
		waitInPlace(50);
		const capped = preciseNow() - start;
		// Capped at 1 ms; a loaded machine may add a little, never the 50 asked.
		expect(capped).toBeGreaterThanOrEqual(BRIEF_WAIT_MAX_MS);
		expect(capped).toBeLessThan(40);
		const zero = preciseNow();
		waitInPlace(0);
		waitInPlace(-3);
		expect(preciseNow() - zero).toBeLessThan(BRIEF_WAIT_MAX_MS);
	});
});
