/**
 * Benchmarks 1 and 2: 2,000 template sends by this node and by n8n's HTTP Request node in the same
 * n8n, against the sandbox with 20 ms of latency, then against a sandbox limited to 100 requests/s.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
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
import { TARGET, destinations } from './workflows';

export const SEND_COUNT = 2_000;
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
interface SendCheck {
	sends: number;
	distinct: number;
	/** Every destination exactly once, none other. */
	exactlyOnce: boolean;
	refused429: number;
}

function checkSends(sandbox: Sandbox): SendCheck {
	const counts = sandbox.state.sendCountByDestination;
	const expected = destinations(SEND_COUNT);
	return {
		sends: sandbox.state.sentMessages.length,
		distinct: Object.keys(counts).length,
		exactlyOnce:
			Object.keys(counts).length === SEND_COUNT &&
			expected.every((destination) => counts[destination] === 1),
		refused429: sandbox.requests.filter((request) => request.status === 429).length,
	};
}

interface SendRun {
	ok: boolean;
	failure?: string;
	nodeMs: number;
	processMs: number;
	peakRssMb: number;
	outputItems: number;
	errorItems: number;
	check: SendCheck;
}

async function runSends(
	folder: UserFolder,
	sandbox: Sandbox,
	workflowId: string,
	options: { rateLimitPerSecond?: number; timeoutMs?: number } = {},
): Promise<SendRun> {
	sandbox.reset();
	sandbox.setOptions({ latencyMs: LATENCY_MS, rateLimitPerSecond: options.rateLimitPerSecond });
	const run: MeasuredRun = await executeMeasured(folder, workflowId, {
		timeoutMs: options.timeoutMs,
	});
	const items = outputItems(run, TARGET);
	return {
		ok: run.ok,
		failure: run.ok ? undefined : runFailure(run),
		nodeMs: nodeTimeMs(run, TARGET),
		processMs: run.processMs,
		peakRssMb: round(run.peakRssMb),
		outputItems: items.length,
		errorItems: errorItemCount(items),
		check: checkSends(sandbox),
	};
}

interface VariantSummary {
	label: string;
	runs: SendRun[];
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
		return [
			entry.label,
			sends ? num(entry.nodeMs / 1000, 2) : 'n/a',
			num(entry.processMs / 1000, 1),
			sends ? num(entry.requestsPerSecond) : 'n/a',
			num(entry.peakRssMb),
			key === 'baseline' ? '0' : `+${num(entry.peakRssMb - baseline.peakRssMb)}`,
			sends ? `${num(entry.nodeMs / http.nodeMs, 2)}×` : 'n/a',
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
			'`n8n execute` process; peak: VmHWM of the main n8n process, and its increase over the Code-only run.',
			'"sent once": every output item ok, and the sandbox saw each of the 2,000 destinations exactly once.',
		],
		columns: [
			'variant',
			'node s',
			'process s',
			'req/s',
			'peak MB',
			'Δ peak MB',
			'time vs HTTP',
			'sent once',
		],
		rows,
		goals: [
			goal(
				'50 in parallel: time ratio to the HTTP Request node ≤ 1.00',
				`${num(conc50Ratio, 2)}× (${num(summary.nodeConcurrency50.nodeMs / 1000, 2)} s vs ${num(http.nodeMs / 1000, 2)} s)`,
				conc50Ratio <= 1 && summary.nodeConcurrency50.allOk,
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

/** Benchmark 2: the same sends against a sandbox that answers 429 beyond `RATE_LIMIT` per second. */
export async function benchRateLimited(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: SendIds,
	log: (message: string) => void,
): Promise<Section> {
	const limitMs = (1.2 * SEND_COUNT * 1000) / RATE_LIMIT;
	log(`rate limit: SMSLeopard node, defaults, ${RATE_LIMIT} requests/s`);
	const node = await runSends(folder, sandbox, ids.nodeDefault, {
		rateLimitPerSecond: RATE_LIMIT,
		// Bounded: twice the goal plus n8n's start-up, so a regression is reported, not waited out.
		timeoutMs: 2 * limitMs + 30_000,
	});
	log(`rate limit: HTTP Request node, continue on fail, ${RATE_LIMIT} requests/s`);
	const http = await runSends(folder, sandbox, ids.httpRequestContinue, {
		rateLimitPerSecond: RATE_LIMIT,
	});
	const nodeFailed = node.ok
		? SEND_COUNT - node.outputItems + node.errorItems
		: SEND_COUNT - node.check.sends;
	const httpFailed = http.errorItems + (SEND_COUNT - http.outputItems);
	const row = (label: string, run: SendRun, failed: number) => [
		label,
		num(run.nodeMs / 1000, 2),
		num(run.processMs / 1000, 1),
		String(failed),
		String(run.check.sends),
		run.check.exactlyOnce ? 'yes' : 'no',
		String(run.check.refused429),
		num(run.peakRssMb),
	];
	return {
		title: `2. ${SEND_COUNT.toLocaleString('en')} sends, sandbox limited to ${RATE_LIMIT} requests/s (429 + Retry-After), ${LATENCY_MS} ms latency`,
		notes: [
			'One run each. failed: output items carrying an error (HTTP Request: On Error = Continue) or',
			'items missing from the output; sent: sends the sandbox accepted; 429s: requests it refused.',
			...(node.failure ? [`SMSLeopard run failed: ${node.failure}`] : []),
		],
		columns: ['variant', 'node s', 'process s', 'failed', 'sent', 'each once', '429s', 'peak MB'],
		rows: [
			row('SMSLeopard node, defaults', node, nodeFailed),
			row('HTTP Request node 4.2, continue on fail', http, httpFailed),
		],
		goals: [
			goal(
				`SMSLeopard defaults: zero failed items within 1.2 × N / limit = ${num(limitMs / 1000)} s`,
				`${nodeFailed} failed, ${num(node.nodeMs / 1000, 2)} s`,
				node.ok && nodeFailed === 0 && node.check.exactlyOnce && node.nodeMs <= limitMs,
			),
		],
		data: {
			n8n: folder.n8n.version,
			sends: SEND_COUNT,
			latencyMs: LATENCY_MS,
			rateLimitPerSecond: RATE_LIMIT,
			goalMs: limitMs,
			node: { ...node, failedItems: nodeFailed },
			httpRequest: { ...http, failedItems: httpFailed },
		},
	};
}
