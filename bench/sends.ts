/**
 * Benchmarks 1 and 2: 2,000 template sends by this node and by n8n's HTTP Request node (configured
 * each way its users set it up) in the same n8n, against the reply server with 20 ms of latency,
 * then against the reply server limited to 100 requests/s. Each figure shows the server's own CPU.
 */
import { printTimeline } from './timeline';
import type { UserFolder } from '../test/e2e/harness';
import { type LimiterSettings, busiestWindow } from '../test/sandbox/limiters';
import type { ReplyServer, ReplyStats } from './reply-server';
import {
	type MeasuredRun,
	errorItemCount,
	executeMeasured,
	inTurn,
	median,
	nodeTimeMs,
	outputItems,
	round,
	runFailure,
} from './measure';
import { type Section, goal, num } from './report';
import { type Spread, compare, riseOver, showSpread, spread } from './spread';
import { BARE_SPACING_MS } from './bare-sender';
import { HTTP_SEND_VARIANTS, type HttpSendVariant, TARGET, destinations } from './workflows';

/** BENCH_SENDS shrinks every send benchmark for a quick check of the bench itself. */
export const SEND_COUNT = Number(process.env.BENCH_SENDS) || 2_000;
export const LATENCY_MS = 20;
export const DEFAULT_CONCURRENCY = 10;
export const RATE_LIMIT = 100;

export type SendIds = Record<
	| 'baseline'
	| 'nodeDefault'
	| 'nodeConcurrency50'
	| 'bareSender'
	| 'bareSenderSpaced'
	| 'bareSenderPastN8n'
	| HttpSendVariant,
	string
>;

/** What the server saw of one run's sends. */
export interface SendCheck {
	sends: number;
	distinct: number;
	/** Destinations sent more than once. */
	doubles: number;
	/** Every destination exactly once, none other. */
	exactlyOnce: boolean;
	refused429: number;
	/** The reply server's own CPU for the run, per request it answered (µs). */
	serverCpuUsPerRequest: number;
	/** The latency the server actually served, mean ms from a request's arrival to its answer's end. */
	servedLatencyMs: number;
	/** The most requests the server accepted in one second of the run. */
	busiestSecond: number;
}

export function checkSends(stats: ReplyStats, count: number): SendCheck {
	const expected = destinations(count);
	return {
		sends: stats.sends,
		distinct: stats.distinct,
		doubles: stats.doubles,
		exactlyOnce:
			stats.distinct === count &&
			stats.sends === count &&
			expected.every((destination) => stats.counts[destination] === 1),
		refused429: stats.refused429,
		serverCpuUsPerRequest: stats.requests ? (stats.cpuMs * 1000) / stats.requests : 0,
		servedLatencyMs: stats.meanAnswerMs,
		busiestSecond: busiestWindow(stats.receivedAt),
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
	server: ReplyServer,
	workflowId: string,
	options: {
		limiter?: LimiterSettings;
		/** How long a 429 takes (default: the latency of every answer). */
		refusalLatencyMs?: number;
		timeoutMs?: number;
		count?: number;
	} = {},
): Promise<SendRun> {
	await server.reset({
		latencyMs: LATENCY_MS,
		refusalLatencyMs: options.refusalLatencyMs,
		limiter: options.limiter,
	});
	const run: MeasuredRun = await executeMeasured(folder, workflowId, {
		timeoutMs: options.timeoutMs,
	});
	const items = outputItems(run, TARGET);
	const stats = await server.stats();
	printTimeline(
		stats,
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
		check: checkSends(stats, options.count ?? SEND_COUNT),
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

/** The HTTP Request node variants, labelled as their users would recognise them. */
const HTTP_LABELS: Record<HttpSendVariant, string> = {
	httpHeaderParameter: 'HTTP Request 4.2, key typed into a header parameter, all at once',
	httpHeaderAuth: 'HTTP Request 4.2, Header Auth credential, all at once',
	httpBasicAuth: 'HTTP Request 4.2, Basic Auth credential, all at once',
	httpHeaderAuthBatched: 'HTTP Request 4.2, Header Auth credential, batches of 50',
};

/** Benchmark 1: each variant `repeats` times, interleaved so drift hits all alike; medians. */
export async function benchSends(
	folder: UserFolder,
	server: ReplyServer,
	ids: SendIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const variants: Array<{ key: keyof SendIds; label: string }> = [
		{
			key: 'baseline',
			label: `Code node only (${SEND_COUNT.toLocaleString('en')} items, no sends)`,
		},
		{ key: 'nodeDefault', label: 'SMSLeopard node, defaults (10 in parallel)' },
		{ key: 'nodeConcurrency50', label: 'SMSLeopard node, 50 in parallel' },
		{ key: 'bareSender', label: 'bare node (bare-sender.ts), 10 in flight, starts at once' },
		{
			key: 'bareSenderSpaced',
			label: `bare node, 10 in flight, starts ${BARE_SPACING_MS} ms apart: n8n's own floor`,
		},
		{
			key: 'bareSenderPastN8n',
			label: "the same past n8n's HTTP stack (keep-alive; skips n8n's SSRF and proxy checks)",
		},
		...HTTP_SEND_VARIANTS.map((key) => ({ key, label: HTTP_LABELS[key] })),
	];
	const runs: Record<string, SendRun[]> = {};
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const variant of inTurn(variants, repeat - 1)) {
			log(`sends: ${variant.label}, run ${repeat}/${repeats}`);
			(runs[variant.key] ??= []).push(await runSends(folder, server, ids[variant.key]));
		}
	}
	const summary = Object.fromEntries(
		variants.map((variant) => [variant.key, summarise(variant.label, runs[variant.key])]),
	) as Record<keyof SendIds, VariantSummary>;
	const fastest = summary.httpHeaderParameter;
	const headerAuth = summary.httpHeaderAuth;
	const baseline = summary.baseline;
	const floorMs = (SEND_COUNT * LATENCY_MS) / DEFAULT_CONCURRENCY;
	const rows = variants.map(({ key }) => {
		const entry = summary[key];
		const sends = key !== 'baseline';
		const rise = riseOver(
			entry.runs.map((run) => run.peakRssMb),
			baseline.peakMb,
		);
		const serverCpu = spread(entry.runs.map((run) => run.check.serverCpuUsPerRequest));
		return [
			entry.label,
			sends ? showSpread(entry.seconds) : 'n/a',
			num(entry.processMs / 1000, 1),
			sends ? num(entry.requestsPerSecond) : 'n/a',
			showSpread(entry.peakMb, 0),
			key === 'baseline' ? '0' : showSpread(rise, 0),
			sends && key !== 'httpHeaderParameter' ? compare(entry.seconds, fastest.seconds, 's') : 'n/a',
			sends ? showSpread(serverCpu, 0) : 'n/a',
			!sends ? 'n/a' : sentCleanly(entry) ? 'yes' : 'NO',
		];
	});
	const conc50 = summary.nodeConcurrency50;
	const conc50VsFastest = conc50.nodeMs / fastest.nodeMs;
	const conc50VsHeaderAuth = conc50.nodeMs / headerAuth.nodeMs;
	const defaultVsFloor = summary.nodeDefault.nodeMs / floorMs;
	const bare = summary.bareSenderSpaced;
	const bareVsFloor = bare.nodeMs / floorMs;
	const bareAtOnce = summary.bareSender;
	const bareAtOnceVsFloor = bareAtOnce.nodeMs / floorMs;
	const barePastN8n = summary.bareSenderPastN8n;
	const barePastN8nVsFloor = barePastN8n.nodeMs / floorMs;
	// The goal's floor takes the nominal latency; the server's timer fires a little later, and the
	// floor at the latency it served says how much of the rest is the node's.
	const served = median(summary.nodeDefault.runs.map((run) => run.check.servedLatencyMs));
	const servedFloorMs = (SEND_COUNT * served) / DEFAULT_CONCURRENCY;
	const sending = variants.filter(({ key }) => key !== 'baseline');
	return {
		title: `1. ${SEND_COUNT.toLocaleString('en')} template sends, ${LATENCY_MS} ms reply-server latency`,
		notes: [
			`Median (min–max) of ${repeats} run(s) each, interleaved; each run is a fresh \`n8n execute\`.`,
			"node s: the sending node's own execution time (beyond n8n's start); process s: the whole",
			"`n8n execute` process; peak: VmHWM of the main n8n process, and each run's rise over the",
			"Code-only median. A time difference within both variants' min–max ranges is reported as",
			'"no measurable difference". The server is the reply server (bench/reply-server): precomputed',
			'answers, no validation or logging, in its own process; server µs/req: its own CPU per request.',
			`"sent once": every output item ok, and the server saw each of the ${SEND_COUNT.toLocaleString('en')} destinations exactly once.`,
			// Not a goal: how much of the defaults' time over the floor is n8n's own, measured by a node
			// that does nothing but send 10 at a time through n8n (bare-sender.ts).
			`n8n's own floor at 10 in flight (the bare node, starts ${BARE_SPACING_MS} ms apart): ${showSpread(bare.seconds)} s = ${num(bareVsFloor, 2)}× N × latency / 10; the defaults against it: ${compare(summary.nodeDefault.seconds, bare.seconds, 's')}. With its 10 starts at once, the bare node takes ${showSpread(bareAtOnce.seconds)} s = ${num(bareAtOnceVsFloor, 2)}×; spaced, past n8n's HTTP stack (which no node should do), ${showSpread(barePastN8n.seconds)} s = ${num(barePastN8nVsFloor, 2)}×.`,
		],
		columns: [
			'variant',
			'node s',
			'process s',
			'req/s',
			'peak MB',
			'peak rise MB',
			'time vs HTTP Request, key in header',
			'server µs/req',
			'sent once',
		],
		rows,
		goals: [
			goal(
				"50 in parallel: ≤ 1.0× the HTTP Request node's fastest (key typed into a header, all at once)",
				`${num(conc50VsFastest, 2)}× (${showSpread(conc50.seconds)} s vs ${showSpread(fastest.seconds)} s)`,
				conc50VsFastest <= 1 && conc50.allOk,
			),
			goal(
				'50 in parallel: ≤ 0.6× the HTTP Request node with a Header Auth credential',
				`${num(conc50VsHeaderAuth, 2)}× (${showSpread(conc50.seconds)} s vs ${showSpread(headerAuth.seconds)} s)`,
				conc50VsHeaderAuth <= 0.6 && conc50.allOk,
			),
			goal(
				`defaults: within 1.25× of the floor N × latency / concurrency = ${num(floorMs / 1000, 1)} s`,
				`${num(summary.nodeDefault.nodeMs / 1000, 2)} s = ${num(defaultVsFloor, 2)}× the floor (the server served ${num(served, 2)} ms per answer: ${num(summary.nodeDefault.nodeMs / servedFloorMs, 2)}× the floor at that latency, ${num(servedFloorMs / 1000, 2)} s)`,
				defaultVsFloor <= 1.25 && summary.nodeDefault.allOk,
			),
			goal(
				'every variant: each destination sent exactly once, no failed item',
				sending.map(({ key }) => `${key} ${sentCleanly(summary[key]) ? 'yes' : 'NO'}`).join(', '),
				sending.every(({ key }) => sentCleanly(summary[key])),
			),
		],
		data: {
			n8n: folder.n8n.version,
			sends: SEND_COUNT,
			latencyMs: LATENCY_MS,
			repeats,
			floorMs,
			servedLatencyMs: round(served, 2),
			servedFloorMs: round(servedFloorMs, 0),
			variants: summary,
			goals: {
				concurrency50RatioToFastestHttp: round(conc50VsFastest, 3),
				concurrency50RatioToHeaderAuthHttp: round(conc50VsHeaderAuth, 3),
				defaultRatioToFloor: round(defaultVsFloor, 3),
				bareSenderSpacedRatioToFloor: round(bareVsFloor, 3),
				bareSenderAtOnceRatioToFloor: round(bareAtOnceVsFloor, 3),
				bareSenderPastN8nRatioToFloor: round(barePastN8nVsFloor, 3),
			},
		},
	};
}
