/**
 * Sends at defaults at two sizes, 2,000 and 10,000, interleaved, so "time and memory flat, not
 * growing with N" is a comparison of measured figures, not a claim. Per size and repeat:
 * - the node and the HTTP Request node (no limits): time and peak RSS, each less the peak of a run of
 *   the same workflow without the sender (Code node items only);
 * - with live-heap-probe.js: the largest heap still in use after a forced full garbage collection,
 *   for the node, the Code-only baseline and Code nodes making items like the node's output. n8n
 *   keeps every output item of a run, so the total grows with N; what must hold is that each
 *   further 1,000 sends keep no more than those items (no per-item state the node keeps beyond
 *   them). Peak RSS is shown beside it and compared with the HTTP Request node's: it also counts
 *   garbage V8 has not collected yet, and V8 defers full collections while the heap is far below
 *   its limit, so it grows with the length of any run that makes requests.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { ReplyServer } from './reply-server';
import { executeMeasured } from './measure';
import { executeLiveHeap } from './live-heap';
import { goal, num, type Section } from './report';
import { LATENCY_MS, SEND_COUNT, type SendRun, checkSends, runSends } from './sends';
import { type Spread, compare, showSpread, spread } from './spread';

/** BENCH_SCALE_SENDS shrinks it for a quick check of the bench itself. */
export const SCALE_COUNT = Number(process.env.BENCH_SCALE_SENDS) || 10_000;

interface SizeIds {
	baseline: string;
	outputLookalikes: string;
	nodeDefault: string;
	httpRequest: string;
}

export interface ScaleIds {
	small: SizeIds;
	large: SizeIds;
}

/** What one size's runs measured. */
interface SizeRuns {
	baselinePeak: number[];
	node: SendRun[];
	http: SendRun[];
	liveBaseline: number[];
	lookalikesLive: number[];
	nodeLive: number[];
	/** Every live-heap run of the node went through and sent each destination once. */
	liveClean: boolean[];
}

interface SizeFigures {
	sends: number;
	seconds: Spread;
	perSecond: Spread;
	httpSeconds: Spread;
	baseline: Spread;
	rise: Spread;
	risePerThousand: Spread;
	httpRise: Spread;
	liveBaseline: Spread;
	liveLookalikes: Spread;
	liveNode: Spread;
	liveRise: Spread;
	liveRisePerThousand: Spread;
	clean: boolean;
	httpClean: boolean;
	runs: SendRun[];
	httpRuns: SendRun[];
}

const sentCleanly = (run: SendRun): boolean =>
	run.ok && run.check.exactlyOnce && run.errorItems === 0;

function figures(sends: number, runs: SizeRuns): SizeFigures {
	const baseline = spread(runs.baselinePeak);
	const liveBaseline = spread(runs.liveBaseline);
	// Each run less the baseline's median, as for the other benchmarks.
	const rises = runs.node.map((run) => run.peakRssMb - baseline.median);
	const liveRises = runs.nodeLive.map((mb) => mb - liveBaseline.median);
	const perThousand = (values: number[]) => spread(values.map((mb) => (mb * 1000) / sends));
	return {
		sends,
		seconds: spread(runs.node.map((run) => run.nodeMs / 1000)),
		perSecond: spread(runs.node.map((run) => (sends * 1000) / run.nodeMs)),
		httpSeconds: spread(runs.http.map((run) => run.nodeMs / 1000)),
		baseline,
		rise: spread(rises),
		risePerThousand: perThousand(rises),
		httpRise: spread(runs.http.map((run) => run.peakRssMb - baseline.median)),
		liveBaseline,
		liveLookalikes: spread(runs.lookalikesLive),
		liveNode: spread(runs.nodeLive),
		liveRise: spread(liveRises),
		liveRisePerThousand: perThousand(liveRises),
		clean: runs.node.every(sentCleanly) && runs.liveClean.every(Boolean),
		httpClean: runs.http.every(sentCleanly),
		runs: runs.node,
		httpRuns: runs.http,
	};
}

export async function benchScale(
	folder: UserFolder,
	server: ReplyServer,
	ids: ScaleIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const sizes = [
		{ key: 'small', sends: SEND_COUNT, ids: ids.small },
		{ key: 'large', sends: SCALE_COUNT, ids: ids.large },
	] as const;
	const empty = (): SizeRuns => ({
		baselinePeak: [],
		node: [],
		http: [],
		liveBaseline: [],
		lookalikesLive: [],
		nodeLive: [],
		liveClean: [],
	});
	const runs: Record<string, SizeRuns> = { small: empty(), large: empty() };
	const timeoutMs = 300_000;
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const size of sizes) {
			const into = runs[size.key];
			const step = (what: string) =>
				log(`scale: ${size.sends.toLocaleString('en')} ${what}, run ${repeat}/${repeats}`);
			step('items, Code node only');
			await server.reset({ latencyMs: LATENCY_MS });
			into.baselinePeak.push((await executeMeasured(folder, size.ids.baseline)).peakRssMb);
			step('sends, SMSLeopard defaults');
			into.node.push(
				await runSends(folder, server, size.ids.nodeDefault, { count: size.sends, timeoutMs }),
			);
			step('sends, HTTP Request node');
			into.http.push(
				await runSends(folder, server, size.ids.httpRequest, { count: size.sends, timeoutMs }),
			);
			// A failed live-heap run is logged; its NaN then drops out of the spread (fewer runs).
			const liveHeap = async (what: string, workflowId: string) => {
				step(`${what}, live heap`);
				await server.reset({ latencyMs: LATENCY_MS });
				const live = await executeLiveHeap(folder, workflowId, timeoutMs);
				if (!live.ok) log(`scale: live-heap run failed (${what}): ${live.failure}`);
				return live;
			};
			into.liveBaseline.push(
				(await liveHeap('items, Code node only', size.ids.baseline)).liveHeapMb,
			);
			into.lookalikesLive.push(
				(await liveHeap("items shaped like the node's output", size.ids.outputLookalikes))
					.liveHeapMb,
			);
			const live = await liveHeap('sends, SMSLeopard defaults', size.ids.nodeDefault);
			into.nodeLive.push(live.liveHeapMb);
			into.liveClean.push(live.ok && checkSends(await server.stats(), size.sends).exactlyOnce);
		}
	}
	const small = figures(SEND_COUNT, runs.small);
	const large = figures(SCALE_COUNT, runs.large);
	const noise = (value: Spread) => value.max - value.min;
	// What each further 1,000 items keep, from the two sizes' medians: the node's runs against Code
	// nodes making the same output items. More would be state the node keeps per item.
	const perFurtherThousand = (pick: (f: SizeFigures) => Spread) =>
		((pick(large).median - pick(small).median) * 1000) / (SCALE_COUNT - SEND_COUNT);
	const nodeSlope = perFurtherThousand((f) => f.liveNode);
	const lookalikeSlope = perFurtherThousand((f) => f.liveLookalikes);
	const slopeAllowance =
		lookalikeSlope +
		((noise(small.liveNode) +
			noise(large.liveNode) +
			noise(small.liveLookalikes) +
			noise(large.liveLookalikes)) *
			1000) /
			(SCALE_COUNT - SEND_COUNT);
	const show = (f: SizeFigures, pick: (f: SizeFigures) => Spread, digits = 2) =>
		showSpread(pick(f), digits);
	const both = (title: string, pick: (f: SizeFigures) => Spread, digits = 2) => [
		title,
		show(small, pick, digits),
		show(large, pick, digits),
	];
	const label = (n: number) => n.toLocaleString('en');
	const peakVsHttp = compare(large.rise, large.httpRise, 'MB', 0);
	return {
		title: `Scale: ${label(SEND_COUNT)} and ${label(SCALE_COUNT)} sends at defaults, ${LATENCY_MS} ms latency`,
		notes: [
			`Median (min–max) of ${repeats} interleaved run(s) per size. Peak: VmHWM of the main n8n`,
			'process; rise: each run less the median of the Code-node-only runs of the same size, whose',
			'own spread is shown. Live heap: the largest heap in use after a forced full garbage collection',
			'(once a second, separate runs), what n8n and the node keep. n8n holds every output item, so',
			'the rise grows with N; per 1,000 sends it must not. Peak RSS also counts garbage V8 has not',
			'collected yet (it defers full collections far below its heap limit), so it grows with the',
			"length of any run that makes requests: it is compared with the HTTP Request node's.",
		],
		columns: ['figure', label(SEND_COUNT), label(SCALE_COUNT)],
		rows: [
			both('node s', (f) => f.seconds),
			both('sends/s', (f) => f.perSecond, 0),
			both('HTTP Request node s (no limits)', (f) => f.httpSeconds),
			both('peak MB, Code node only (baseline)', (f) => f.baseline, 0),
			both('peak MB rise over baseline, node', (f) => f.rise, 0),
			both('peak MB rise over baseline, HTTP Request', (f) => f.httpRise, 0),
			both('peak MB rise per 1,000 sends, node', (f) => f.risePerThousand, 1),
			both('live heap MB, Code node only (baseline)', (f) => f.liveBaseline, 1),
			both("live heap MB, Code node making the node's output items", (f) => f.liveLookalikes, 1),
			both('live heap MB, node', (f) => f.liveNode, 1),
			both('live heap MB rise over the Code-only baseline, node', (f) => f.liveRise, 1),
			both('live heap MB rise per 1,000 sends, node', (f) => f.liveRisePerThousand, 2),
			[
				'each destination once, no failed item: node / HTTP Request',
				`${small.clean ? 'yes' : 'NO'} / ${small.httpClean ? 'yes' : 'NO'}`,
				`${large.clean ? 'yes' : 'NO'} / ${large.httpClean ? 'yes' : 'NO'}`,
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
				`memory kept per send flat: live heap per further 1,000 sends (${label(SEND_COUNT)} to ${label(SCALE_COUNT)}) no more than Code nodes making the same output items + the runs' noise`,
				`node ${num(nodeSlope, 2)} MB vs ${num(lookalikeSlope, 2)} MB (allowed ${num(slopeAllowance, 2)} MB); per 1,000 sends in all ${num(large.liveRisePerThousand.median, 2)} MB at ${label(SCALE_COUNT)}, ${num(small.liveRisePerThousand.median, 2)} MB at ${label(SEND_COUNT)}`,
				nodeSlope <= slopeAllowance,
			),
			goal(
				`peak RSS rise at ${label(SCALE_COUNT)} sends not above the HTTP Request node's`,
				`${showSpread(large.rise, 0)} MB vs ${showSpread(large.httpRise, 0)} MB: ${peakVsHttp}`,
				large.rise.min <= large.httpRise.max,
			),
		],
		data: {
			latencyMs: LATENCY_MS,
			repeats,
			liveMbPerFurtherThousand: {
				node: nodeSlope,
				outputLookalikes: lookalikeSlope,
				allowed: slopeAllowance,
			},
			small,
			large,
		},
	};
}
