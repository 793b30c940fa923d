/**
 * The clock and sleep pacing uses inside n8n (client/precise-clock.ts). Under Max Requests per
 * Second each start waits for the previous one plus the interval, so time lost to a whole-ms clock
 * or a 1 ms minimum timer is never made up: at 245 a second, 195 went out with Date.now.
 */
import { preciseNow, preciseSleep } from '../../nodes/SmsLeopard/client/precise-clock';
import { Pacer } from '../../nodes/SmsLeopard/client/pacing';

describe('precise clock for pacing', () => {
	it('reads the same time as Date.now, with the fraction of a millisecond', () => {
		const readings = Array.from({ length: 200 }, () => [preciseNow(), Date.now()]);
		for (const [precise, whole] of readings) expect(Math.abs(precise - whole)).toBeLessThan(50);
		expect(readings.some(([precise]) => !Number.isInteger(precise))).toBe(true);
	});

	it('waits whole milliseconds with the timer, and less than one with the next turn of the loop', async () => {
		const asked: number[] = [];
		const sleep = preciseSleep(async (ms) => {
			asked.push(ms);
		});
		await sleep(4.08);
		await sleep(0.3);
		await sleep(0);
		// The timer got the whole 4 ms only; the rest never became a 1 ms timer.
		expect(asked).toEqual([4]);
	});

	it('a pacer at 245 a second on this clock keeps every gap, and its starts land on time', async () => {
		// A clock that reads fractions, advanced by the sleeps the pacer asks for (as a quiet loop).
		let now = 1_000_000.25;
		const sleep = preciseSleep(async (ms) => {
			now += ms;
		});
		const pacer = new Pacer(
			async (ms) => {
				await sleep(ms);
				// Below a millisecond the loop's next turn takes a little time.
				if (ms < 1) now += ms;
			},
			{ requestsPerSecond: 245, now: () => now },
		);
		const starts: number[] = [];
		for (let index = 0; index < 245; index++) starts.push((await pacer.wait()).startedAt);
		const gaps = starts.slice(1).map((at, index) => at - starts[index]);
		expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000 / 245 - 1e-9);
		// 245 starts in one second of the clock, not 195 as whole milliseconds gave.
		expect(starts[244] - starts[0]).toBeLessThan(1000 + 1e-6);
	});
});
