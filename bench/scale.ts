/**
 * Sends at defaults at two sizes, 2,000 and 10,000, interleaved, so "time and memory flat, not
 * growing with N" is a comparison of measured figures, not a claim: time per send, and the peak
 * memory rise over a run of the same workflow shape without the sender (Code node items only) per
 * 1,000 sends. n8n keeps every output item of a run in memory, so the rise cannot be flat in total;
 * what must hold is that it grows no faster than N (no per-item state the node keeps beyond them).
 */
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { executeMeasured } from './measure';
import { goal, num, type Section } from './report';
import { LATENCY_MS, SEND_COUNT, type SendRun, runSends } from './sends';
import { type Spread, showSpread, spread } from './spread';

/** BENCH_SCALE_SENDS shrinks it for a quick check of the bench itself. */
export const SCALE_COUNT = Number(process.env.BENCH_SCALE_SENDS) || 10_000;

export interface ScaleIds {
	small: { baseline: string; nodeDefault: string };
	large: { baseline: string; nodeDefault: string };
}

interface SizeFigures {
	sends: number;
	seconds: Spread;
	perSecond: Spread;
	baseline: Spread;
	rise: Spread;
	risePerThousand: Spread;
	clean: boolean;
	runs: SendRun[];
}

function figures(sends: number, baselineRss: number[], runs: SendRun[]): SizeFigures {
	const baseline = spread(baselineRss);
	// Each run less the baseline's median, as riseOver does for the other benchmarks.
	const rises = runs.map((run) => run.peakRssMb - baseline.median);
	return {
		sends,
		seconds: spread(runs.map((run) => run.nodeMs / 1000)),
		perSecond: spread(runs.map((run) => (sends * 1000) / run.nodeMs)),
		baseline,
		rise: spread(rises),
		risePerThousand: spread(rises.map((rise) => (rise * 1000) / sends)),
		clean: runs.every((run) => run.ok && run.check.exactlyOnce && run.errorItems === 0),
		runs,
	};
}

export async function benchScale(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: ScaleIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const sizes = [
		{ key: 'small', sends: SEND_COUNT, ids: ids.small },
		{ key: 'large', sends: SCALE_COUNT, ids: ids.large },
	] as const;
	const baselineRss: Record<string, number[]> = { small: [], large: [] };
	const runs: Record<string, SendRun[]> = { small: [], large: [] };
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const size of sizes) {
			log(`scale: ${size.sends} items, Code node only, run ${repeat}/${repeats}`);
			sandbox.reset();
			baselineRss[size.key].push((await executeMeasured(folder, size.ids.baseline)).peakRssMb);
			log(`scale: ${size.sends} sends, SMSLeopard defaults, run ${repeat}/${repeats}`);
			runs[size.key].push(
				await runSends(folder, sandbox, size.ids.nodeDefault, {
					count: size.sends,
					timeoutMs: 300_000,
				}),
			);
		}
	}
	const small = figures(SEND_COUNT, baselineRss.small, runs.small);
	const large = figures(SCALE_COUNT, baselineRss.large, runs.large);
	const baselineNoise = (f: SizeFigures) => f.baseline.max - f.baseline.min;
	// Per 1,000 sends, the large run's rise may exceed the small one's only by the baselines' own noise.
	const memoryAllowance =
		Math.max(0, small.risePerThousand.median) +
		((baselineNoise(small) + baselineNoise(large)) * 1000) / SCALE_COUNT;
	const show = (f: SizeFigures, pick: (f: SizeFigures) => Spread, digits = 2) =>
		showSpread(pick(f), digits);
	const label = (n: number) => n.toLocaleString('en');
	return {
		title: `Scale: ${label(SEND_COUNT)} and ${label(SCALE_COUNT)} sends at defaults, ${LATENCY_MS} ms latency`,
		notes: [
			`Median (min–max) of ${repeats} interleaved run(s) per size. Peak: VmHWM of the main n8n`,
			'process; rise: each run less the median of the Code-node-only runs of the same size, whose',
			'own spread is shown. n8n holds every output item in memory, so the rise grows with N; per',
			'1,000 sends it must not.',
		],
		columns: ['figure', label(SEND_COUNT), label(SCALE_COUNT)],
		rows: [
			['node s', show(small, (f) => f.seconds), show(large, (f) => f.seconds)],
			['sends/s', show(small, (f) => f.perSecond, 0), show(large, (f) => f.perSecond, 0)],
			[
				'peak MB, Code node only (baseline)',
				show(small, (f) => f.baseline, 0),
				show(large, (f) => f.baseline, 0),
			],
			['peak MB rise over baseline', show(small, (f) => f.rise, 0), show(large, (f) => f.rise, 0)],
			[
				'rise MB per 1,000 sends',
				show(small, (f) => f.risePerThousand, 1),
				show(large, (f) => f.risePerThousand, 1),
			],
			[
				'each destination once, no failed item',
				small.clean ? 'yes' : 'NO',
				large.clean ? 'yes' : 'NO',
			],
		],
		goals: [
			goal(
				`${label(SEND_COUNT)} and ${label(SCALE_COUNT)} sends: each destination once, no failed item`,
				`${small.clean ? 'yes' : 'no'}, ${large.clean ? 'yes' : 'no'}`,
				small.clean && large.clean,
			),
			goal(
				`time flat per send: ${label(SCALE_COUNT)} sends at ≥ 0.9 × the sends/s of ${label(SEND_COUNT)}`,
				`${num(large.perSecond.median)} vs ${num(small.perSecond.median)} sends/s`,
				large.perSecond.median >= 0.9 * small.perSecond.median,
			),
			goal(
				`memory grows no faster than N: rise per 1,000 sends at ${label(SCALE_COUNT)} ≤ at ${label(SEND_COUNT)} + the baselines' noise`,
				`${num(large.risePerThousand.median, 1)} MB vs ${num(small.risePerThousand.median, 1)} MB (allowed ${num(memoryAllowance, 1)} MB)`,
				large.risePerThousand.median <= memoryAllowance,
			),
		],
		data: { latencyMs: LATENCY_MS, repeats, small, large },
	};
}
