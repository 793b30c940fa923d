/**
 * Benchmarks 1 and 2: 2,000 template sends by this node and by n8n's HTTP Request node in the same
 * n8n, against the sandbox with 20 ms of latency, then against a sandbox limited to 100 requests/s.
 */
import { printTimeline } from './timeline';
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox, SandboxOptions } from '../test/sandbox';
import {
	type MeasuredRun,
	errorItemCount,
	executeMeasured,
	median,
	nodeTimeMs,
	outputItems,
	round,
	runFailure,
} from './measure';
import { type Section, goal, num } from './report';
import { type Spread, compare, riseOver, showSpread, spread } from './spread';
import { TARGET, destinations } from './workflows';

/** BENCH_SENDS shrinks every send benchmark for a quick check of the bench itself. */
export const SEND_COUNT = Number(process.env.BENCH_SENDS) || 2_000;
export const LATENCY_MS = 20;
export const DEFAULT_CONCURRENCY = 10;
export const RATE_LIMIT = 100;

export interface SendIds {
	baseline: string;
	nodeDefault: string;
	nodeConcurrency50: string;
	httpRequest: string;
	httpRequestContinue: string;
}

/** What the sandbox saw of one run's sends. */
export interface SendCheck {
	sends: number;
	distinct: number;
	/** Destinations sent more than once. */
	doubles: number;
	/** Every destination exactly once, none other. */
	exactlyOnce: boolean;
	refused429: number;
}

export function checkSends(sandbox: Sandbox, count: number): SendCheck {
	const counts = sandbox.state.sendCountByDestination;
	const expected = destinations(count);
	return {
		sends: sandbox.state.sentMessages.length,
		distinct: Object.keys(counts).length,
		doubles: Object.values(counts).filter((times) => times > 1).length,
		exactlyOnce:
			Object.keys(counts).length === count &&
			expected.every((destination) => counts[destination] === 1),
		refused429: sandbox.requests.filter((request) => request.status === 429).length,
	};
}

export interface SendRun {
	ok: boolean;
	failure?: string;
	nodeMs: number;
	processMs: number;
	peakRssMb: number;
	outputItems: number;
	errorItems: number;
	check: SendCheck;
}

export async function runSends(
	folder: UserFolder,
	sandbox: Sandbox,
	workflowId: string,
	options: {
		rateLimitPerSecond?: number;
		limiter?: Partial<SandboxOptions>;
		timeoutMs?: number;
		count?: number;
	} = {},
): Promise<SendRun> {
	sandbox.reset();
	sandbox.setOptions({
		latencyMs: LATENCY_MS,
		rateLimitPerSecond: options.rateLimitPerSecond,
		...options.limiter,
	});
	const run: MeasuredRun = await executeMeasured(folder, workflowId, {
		timeoutMs: options.timeoutMs,
	});
	const items = outputItems(run, TARGET);
	printTimeline(
		sandbox,
		`${workflowId}${options.limiter ? ' ' + JSON.stringify(options.limiter) : ''}`,
	);
	return {
		ok: run.ok,
		failure: run.ok ? undefined : runFailure(run),
		nodeMs: nodeTimeMs(run, TARGET),
		processMs: run.processMs,
		peakRssMb: round(run.peakRssMb),
		outputItems: items.length,
		errorItems: errorItemCount(items),
		check: checkSends(sandbox, options.count ?? SEND_COUNT),
	};
}

interface VariantSummary {
	label: string;
	runs: SendRun[];
	seconds: Spread;
	peakMb: Spread;
	nodeMs: number;
	processMs: number;
	peakRssMb: number;
	requestsPerSecond: number;
	allOk: boolean;
	allExactlyOnce: boolean;
}

function summarise(label: string, runs: SendRun[]): VariantSummary {
	const nodeMs = median(runs.map((run) => run.nodeMs));
	return {
		label,
		runs,
		seconds: spread(runs.map((run) => run.nodeMs / 1000)),
		peakMb: spread(runs.map((run) => run.peakRssMb)),
		nodeMs,
		processMs: median(runs.map((run) => run.processMs)),
		peakRssMb: median(runs.map((run) => run.peakRssMb)),
		requestsPerSecond: (SEND_COUNT * 1000) / nodeMs,
		allOk: runs.every((run) => run.ok && run.outputItems === SEND_COUNT && run.errorItems === 0),
		allExactlyOnce: runs.every((run) => run.check.exactlyOnce),
	};
}

/** Every item sent and answered, each destination exactly once, in every run. */
const sentCleanly = (entry: VariantSummary): boolean => entry.allOk && entry.allExactlyOnce;

/** Benchmark 1: each variant `repeats` times, interleaved so drift hits all alike; medians. */
export async function benchSends(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: SendIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const variants = [
		{
			key: 'baseline',
			label: `Code node only (${SEND_COUNT.toLocaleString('en')} items, no sends)`,
			id: ids.baseline,
		},
		{
			key: 'nodeDefault',
			label: 'SMSLeopard node, defaults (10 in parallel)',
			id: ids.nodeDefault,
		},
		{
			key: 'nodeConcurrency50',
			label: 'SMSLeopard node, 50 in parallel',
			id: ids.nodeConcurrency50,
		},
		{ key: 'httpRequest', label: 'HTTP Request node 4.2', id: ids.httpRequest },
	] as const;
	const runs: Record<string, SendRun[]> = {};
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const variant of variants) {
			log(`sends: ${variant.label}, run ${repeat}/${repeats}`);
			(runs[variant.key] ??= []).push(await runSends(folder, sandbox, variant.id));
		}
	}
	const summary = Object.fromEntries(
		variants.map((variant) => [variant.key, summarise(variant.label, runs[variant.key])]),
	) as Record<(typeof variants)[number]['key'], VariantSummary>;
	const http = summary.httpRequest;
	const baseline = summary.baseline;
	const floorMs = (SEND_COUNT * LATENCY_MS) / DEFAULT_CONCURRENCY;
	const rows = variants.map(({ key }) => {
		const entry = summary[key];
		const sends = key !== 'baseline';
		const rise = riseOver(
			entry.runs.map((run) => run.peakRssMb),
			baseline.peakMb,
		);
		return [
			entry.label,
			sends ? showSpread(entry.seconds) : 'n/a',
			num(entry.processMs / 1000, 1),
			sends ? num(entry.requestsPerSecond) : 'n/a',
			showSpread(entry.peakMb, 0),
			key === 'baseline' ? '0' : showSpread(rise, 0),
			sends && key !== 'httpRequest' ? compare(entry.seconds, http.seconds, 's') : 'n/a',
			!sends ? 'n/a' : sentCleanly(entry) ? 'yes' : 'NO',
		];
	});
	const conc50Ratio = summary.nodeConcurrency50.nodeMs / http.nodeMs;
	const defaultVsFloor = summary.nodeDefault.nodeMs / floorMs;
	return {
		title: `1. ${SEND_COUNT.toLocaleString('en')} template sends, ${LATENCY_MS} ms sandbox latency`,
		notes: [
			`Median of ${repeats} run(s) each, interleaved; each run is a fresh \`n8n execute\`.`,
			"node s: the sending node's own execution time (beyond n8n's start); process s: the whole",
			"`n8n execute` process; peak: VmHWM of the main n8n process, and each run's rise over the",
			"Code-only median, median (min–max). A time difference within both variants' min–max ranges is",
			'reported as "no measurable difference".',
			'"sent once": every output item ok, and the sandbox saw each of the 2,000 destinations exactly once.',
		],
		columns: [
			'variant',
			'node s',
			'process s',
			'req/s',
			'peak MB',
			'peak rise MB',
			'time vs HTTP Request',
			'sent once',
		],
		rows,
		goals: [
			goal(
				'50 in parallel: not slower than the HTTP Request node without limits',
				`${compare(summary.nodeConcurrency50.seconds, http.seconds, 's')} (${showSpread(summary.nodeConcurrency50.seconds)} s vs ${showSpread(http.seconds)} s)`,
				(conc50Ratio <= 1 || summary.nodeConcurrency50.seconds.min <= http.seconds.max) &&
					summary.nodeConcurrency50.allOk,
			),
			goal(
				`defaults: within 1.25× of the floor N × latency / concurrency = ${num(floorMs / 1000, 1)} s`,
				`${num(summary.nodeDefault.nodeMs / 1000, 2)} s = ${num(defaultVsFloor, 2)}× the floor`,
				defaultVsFloor <= 1.25 && summary.nodeDefault.allOk,
			),
			goal(
				'every variant: each destination sent exactly once, no failed item',
				variants
					.filter(({ key }) => key !== 'baseline')
					.map(({ key }) => `${key} ${sentCleanly(summary[key]) ? 'yes' : 'NO'}`)
					.join(', '),
				variants
					.filter(({ key }) => key !== 'baseline')
					.every(({ key }) => sentCleanly(summary[key])),
			),
		],
		data: {
			n8n: folder.n8n.version,
			sends: SEND_COUNT,
			latencyMs: LATENCY_MS,
			repeats,
			floorMs,
			variants: summary,
			goals: {
				concurrency50RatioToHttp: round(conc50Ratio, 3),
				defaultRatioToFloor: round(defaultVsFloor, 3),
			},
		},
	};
}
