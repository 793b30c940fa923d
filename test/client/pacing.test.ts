import { Pacer } from '../../nodes/SmsLeopard/client/pacing';

/** A virtual clock: sleeping moves time forward, so the test measures spacing without waiting. */
function virtualClock() {
	let now = 1_000;
	const sleeps: number[] = [];
	return {
		now: () => now,
		sleep: async (ms: number) => {
			sleeps.push(ms);
			now += ms;
		},
		sleeps,
	};
}

describe('Pacer', () => {
	it('spaces calls at 1000 / requestsPerSecond', async () => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, 4, clock.now);
		const startedAt: number[] = [];
		for (let i = 0; i < 5; i++) {
			await pacer.wait();
			startedAt.push(clock.now());
		}
		expect(startedAt).toEqual([1000, 1250, 1500, 1750, 2000]);
	});

	it('without a limit, lets calls through until a 429 pause, then holds everyone back', async () => {
		const clock = virtualClock();
		const pacer = new Pacer(clock.sleep, 0, clock.now);
		await pacer.wait();
		await pacer.wait();
		expect(clock.sleeps).toEqual([]);
		pacer.pause(1500);
		await pacer.wait();
		expect(clock.now()).toBe(2500);
	});
});
