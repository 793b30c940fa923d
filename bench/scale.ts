/**
 * 10,000 sends at defaults: time, and peak memory as a rise over a run of the same workflow shape
 * without the sender (Code node items only), both with their spread over interleaved runs. Also run
 * at 2,000 sends, so "flat, not growing with N" is a comparison, not a claim.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { executeMeasured } from './measure';
import { goal, type Section } from './report';
import { LATENCY_MS, type SendRun, runSends } from './sends';
import { riseOver, showSpread, spread } from './spread';

/** BENCH_SCALE_SENDS shrinks it for a quick check of the bench itself. */
export const SCALE_COUNT = Number(process.env.BENCH_SCALE_SENDS) || 10_000;

export interface ScaleIds {
	baseline: string;
	nodeDefault: string;
}

export async function benchScale(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: ScaleIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const baselineRss: number[] = [];
	const runs: SendRun[] = [];
	for (let repeat = 1; repeat <= repeats; repeat++) {
		log(`scale: ${SCALE_COUNT} items, Code node only, run ${repeat}/${repeats}`);
		sandbox.reset();
		baselineRss.push((await executeMeasured(folder, ids.baseline)).peakRssMb);
		log(`scale: ${SCALE_COUNT} sends, SMSLeopard defaults, run ${repeat}/${repeats}`);
		runs.push(
			await runSends(folder, sandbox, ids.nodeDefault, {
				count: SCALE_COUNT,
				timeoutMs: 300_000,
			}),
		);
	}
	const baseline = spread(baselineRss);
	const seconds = spread(runs.map((run) => run.nodeMs / 1000));
	const rise = riseOver(
		runs.map((run) => run.peakRssMb),
		baseline,
	);
	const perSecond = spread(runs.map((run) => (SCALE_COUNT * 1000) / run.nodeMs));
	const clean = runs.every((run) => run.ok && run.check.exactlyOnce && run.errorItems === 0);
	return {
		title: `Scale: ${SCALE_COUNT.toLocaleString('en')} sends at defaults, ${LATENCY_MS} ms latency`,
		notes: [
			`Median (min–max) of ${repeats} interleaved run(s). Peak: VmHWM of the main n8n process; rise:`,
			'each run less the median of the Code-node-only runs, whose own spread is shown beside it.',
		],
		columns: ['figure', 'value'],
		rows: [
			['node s', showSpread(seconds)],
			['sends/s', showSpread(perSecond, 0)],
			['peak MB, Code node only (baseline)', showSpread(baseline, 0)],
			['peak MB rise over baseline', showSpread(rise, 0)],
			['each destination once, no failed item', clean ? 'yes' : 'NO'],
		],
		goals: [
			goal(
				`${SCALE_COUNT.toLocaleString('en')} sends: each destination once, no failed item`,
				clean ? 'yes' : 'no',
				clean,
			),
		],
		data: {
			sends: SCALE_COUNT,
			latencyMs: LATENCY_MS,
			repeats,
			seconds,
			perSecond,
			baseline,
			rise,
			runs,
		},
	};
}
