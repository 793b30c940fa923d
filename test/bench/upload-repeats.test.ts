/**
 * The upload benchmark runs twice as many runs as the others: one run's peak memory varies by
 * ±10 MB, twice its 5 MB goal, so a median of 5 moved across the goal from one full run to the next.
 */
import { uploadRepeatsFromEnv } from '../../bench/upload';

const saved = { ...process.env };
afterEach(() => {
	process.env = { ...saved };
});

function repeatsWith(env: { BENCH_REPEATS?: string; BENCH_UPLOAD_REPEATS?: string }): number {
	delete process.env.BENCH_REPEATS;
	delete process.env.BENCH_UPLOAD_REPEATS;
	Object.assign(process.env, env);
	return uploadRepeatsFromEnv();
}

describe('the upload benchmark runs', () => {
	it('10 by default, twice the 5 of the other benchmarks', () => {
		expect(repeatsWith({})).toBe(10);
	});

	it('twice BENCH_REPEATS, so a quick check of the bench stays quick', () => {
		expect(repeatsWith({ BENCH_REPEATS: '1' })).toBe(2);
		expect(repeatsWith({ BENCH_REPEATS: '7' })).toBe(14);
	});

	it('BENCH_UPLOAD_REPEATS when set, between 1 and 20', () => {
		expect(repeatsWith({ BENCH_REPEATS: '1', BENCH_UPLOAD_REPEATS: '15' })).toBe(15);
		expect(repeatsWith({ BENCH_UPLOAD_REPEATS: '50' })).toBe(20);
		expect(repeatsWith({ BENCH_UPLOAD_REPEATS: 'lots' })).toBe(10);
	});
});
