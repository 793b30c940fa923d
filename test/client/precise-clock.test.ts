/**
 * The clock pacing uses inside n8n (client/precise-clock.ts). Under Max Requests per Second each
 * start waits for the previous one plus the interval, so time lost to a whole-millisecond clock is
 * never made up: at 245 a second, 195 went out with Date.now.
 */
import { preciseNow } from '../../nodes/SmsLeopard/client/precise-clock';
import { Pacer } from '../../nodes/SmsLeopard/client/pacing';

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
