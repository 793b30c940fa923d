/**
 * Benchmark "sms": BENCH_SMS_COUNT recipients (default 10,000) against the reply server with 20 ms
 * of latency (bench/reply-server; its own CPU per request is measured and shown): this node 100 per
 * request (and, opt-in, 1 per request), next to n8n's HTTP Request node with one request per item
 * (its default: every item's request started at once, its fastest) and after a Code node grouped
 * them 100 per request. Runs interleaved, `repeats` times (about a minute each on a quiet machine,
 * most of it n8n handling 10,000 items); time is n8n's own execution time of the sending node;
 * requests are what the reply server received; every recipient must be texted exactly once, and the
 * HTTP Request node's failed items (it continues on error) are counted.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { ReplyServer } from './reply-server';
import { SMS_COST_PER_PART, SMS_START_BALANCE } from '../test/sandbox/seed';
import {
	errorItemCount,
	executeMeasured,
	inTurn,
	nodeTimeMs,
	outputItems,
	runFailure,
} from './measure';
import { type Section, goal } from './report';
import { LATENCY_MS } from './sends';
import { BALANCE, BATCHES, REPORTS, REPORT_COUNT, SMS_BATCH } from './sms-workflows';
import { type Spread, compare, showSpread, spread } from './spread';
import { TARGET } from './workflows';

export const SMS_COUNT = Math.max(1, Number(process.env.BENCH_SMS_COUNT ?? 10_000) || 10_000);

const ALL_VARIANTS = [
	{ key: 'nodeBatched', label: `SMSLeopard node, ${SMS_BATCH} per request (default)` },
	// Opt-in (BENCH_SMS_NODE_ONE_BY_ONE=1): 10,000 requests 10 at a time, 2-4 minutes a run.
	{ key: 'nodeOneByOne', label: 'SMSLeopard node, 1 per request (10 in parallel)', optIn: true },
	{ key: 'httpOneByOne', label: 'HTTP Request node, 1 per item (all at once)' },
	{ key: 'httpBatched', label: `HTTP Request node, Code-node batches of ${SMS_BATCH}` },
] as const;
type VariantKey = (typeof ALL_VARIANTS)[number]['key'];
const VARIANTS = ALL_VARIANTS.filter(
	(variant) => !('optIn' in variant) || process.env.BENCH_SMS_NODE_ONE_BY_ONE === '1',
);
export type SmsIds = Record<VariantKey, string>;

interface SmsRun {
	ok: boolean;
	failure?: string;
	nodeMs: number;
	requests: number;
	texted: number;
	exactlyOnce: boolean;
	errorItems: number;
	/** The reply server's CPU per request during the run, in µs. */
	serverUsPerRequest: number;
	/** HTTP Request after Code-node batches: the Code node's own time, which that setup also costs. */
	codeMs?: number;
	/** Batched run only: Delivery Report > Get of its first messages, and the balance after. */
	reportMs?: number;
	reportsRead?: number;
	balanceAfter?: number;
}

interface SmsVariant {
	label: string;
	seconds: Spread;
	requests: Spread;
	errorItems: Spread;
	/** Every run ok, every recipient texted exactly once. */
	clean: boolean;
	runs: SmsRun[];
}

async function runOne(folder: UserFolder, server: ReplyServer, id: string): Promise<SmsRun> {
	await server.reset({ latencyMs: LATENCY_MS });
	const run = await executeMeasured(folder, id, { timeoutMs: 1_800_000 });
	const stats = await server.stats();
	return {
		ok: run.ok,
		failure: run.ok ? undefined : runFailure(run),
		nodeMs: nodeTimeMs(run, TARGET),
		requests: stats.smsRequests,
		texted: stats.sends,
		exactlyOnce: stats.sends === SMS_COUNT && stats.distinct === SMS_COUNT && stats.doubles === 0,
		errorItems: errorItemCount(outputItems(run, TARGET)),
		serverUsPerRequest: stats.requests > 0 ? (stats.cpuMs * 1000) / stats.requests : 0,
		...(run.runData[BATCHES] ? { codeMs: nodeTimeMs(run, BATCHES) } : {}),
		...(run.runData[REPORTS]
			? {
					reportMs: nodeTimeMs(run, REPORTS),
					reportsRead: outputItems(run, REPORTS).filter((item) => item.outcome).length,
					balanceAfter: Number(outputItems(run, BALANCE)[0]?.balance),
				}
			: {}),
	};
}

function summarise(label: string, runs: SmsRun[]): SmsVariant {
	return {
		label,
		seconds: spread(runs.map((run) => run.nodeMs / 1000)),
		requests: spread(runs.map((run) => run.requests)),
		errorItems: spread(runs.map((run) => run.errorItems)),
		clean: runs.every((run) => run.ok && run.exactlyOnce && run.errorItems === 0),
		runs,
	};
}

export async function benchSms(
	folder: UserFolder,
	server: ReplyServer,
	ids: SmsIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const runs = {} as Record<VariantKey, SmsRun[]>;
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const { key, label } of inTurn(VARIANTS, repeat - 1)) {
			log(`sms: ${label}, ${SMS_COUNT} recipients, run ${repeat}/${repeats}`);
			(runs[key] ??= []).push(await runOne(folder, server, ids[key]));
		}
	}
	const summary = Object.fromEntries(
		VARIANTS.map(({ key, label }) => [key, summarise(label, runs[key])]),
	) as Partial<Record<VariantKey, SmsVariant>> & Record<'nodeBatched' | 'httpOneByOne', SmsVariant>;
	const { nodeBatched, httpOneByOne } = summary;
	const httpBatched = summary.httpBatched;
	// What a user of that setup waits for: its Code node, then its HTTP Request node.
	const codeAndHttp = spread(
		(httpBatched?.runs ?? []).map((run) => (run.nodeMs + (run.codeMs ?? Number.NaN)) / 1000),
	);
	const failures = VARIANTS.flatMap(({ key }) =>
		(summary[key]?.runs ?? [])
			.filter((run) => run.failure)
			.map((run) => `${summary[key]?.label ?? key} failed: ${run.failure ?? ''}`),
	);
	return {
		title: `SMS to ${SMS_COUNT.toLocaleString('en')} recipients, ${LATENCY_MS} ms reply-server latency`,
		notes: [
			`Median (min–max) of ${repeats} interleaved run(s); each run is a fresh \`n8n execute\`.`,
			"node s: the sending node's own execution time; requests: SMS requests the reply server received;",
			`server: the reply server's own CPU per request during the run, ${VARIANTS.map(({ key }) => `${key} ${showSpread(spread(runs[key].map((run) => run.serverUsPerRequest)), 0)} µs`).join(', ')}.`,
			`HTTP Request after Code-node batches: its Code node took ${showSpread(spread((httpBatched?.runs ?? []).map((run) => (run.codeMs ?? Number.NaN) / 1000)))} s more, Code and HTTP Request nodes together ${showSpread(codeAndHttp)} s.`,
			'"each once": every run texted every recipient exactly once. The HTTP Request node continues',
			'on error, so a request that failed shows as an error item instead of stopping the run.',
			...failures,
			...nodeBatched.runs.map(
				(run) =>
					`Batched run, then Delivery Report > Get of ${run.reportsRead ?? 0}/${REPORT_COUNT} messages in ${((run.reportMs ?? Number.NaN) / 1000).toFixed(2)} s (1 request each, 10 in parallel); Account > Get Balance after: ${String(run.balanceAfter)} (${SMS_START_BALANCE.toLocaleString('en')} less ${SMS_COUNT.toLocaleString('en')} × ${SMS_COST_PER_PART}).`,
			),
		],
		columns: [
			'variant',
			'node s',
			'requests',
			'each once',
			'error items',
			'time vs HTTP 1 per item',
		],
		rows: VARIANTS.map(({ key }) => {
			const entry = summary[key] as SmsVariant;
			return [
				entry.label,
				showSpread(entry.seconds),
				showSpread(entry.requests, 0),
				entry.clean ? 'yes' : 'NO',
				showSpread(entry.errorItems, 0),
				key === 'httpOneByOne' ? 'n/a' : compare(entry.seconds, httpOneByOne.seconds, 's'),
			];
		}),
		goals: [
			goal(
				`the node texts every recipient exactly once, ${SMS_BATCH} per request`,
				`${nodeBatched.clean ? 'yes' : 'NO'}, ${showSpread(nodeBatched.requests, 0)} requests`,
				nodeBatched.clean &&
					nodeBatched.runs.every((run) => run.requests === Math.ceil(SMS_COUNT / SMS_BATCH)),
			),
			goal(
				`after the batched send: ${REPORT_COUNT} delivery reports read, the balance lower by exactly the cost`,
				nodeBatched.runs
					.map((run) => `${run.reportsRead ?? 0} reports, balance ${String(run.balanceAfter)}`)
					.join('; '),
				nodeBatched.runs.every(
					(run) =>
						run.reportsRead === Math.min(REPORT_COUNT, SMS_COUNT) &&
						Math.abs(
							(run.balanceAfter ?? Number.NaN) -
								(SMS_START_BALANCE - SMS_COUNT * SMS_COST_PER_PART),
						) < 0.005,
				),
			),
			...(httpBatched
				? [
						goal(
							`the node ≤ 1.0× the HTTP Request node after Code-node batches of ${SMS_BATCH} (that node alone; with its Code node: ${compare(nodeBatched.seconds, codeAndHttp, 's')})`,
							`${showSpread(nodeBatched.seconds)} s vs ${showSpread(httpBatched.seconds)} s: ${compare(nodeBatched.seconds, httpBatched.seconds, 's')}`,
							nodeBatched.clean && nodeBatched.seconds.median <= httpBatched.seconds.median,
						),
					]
				: []),
			goal(
				'batched node at least 10x faster than the HTTP Request node with 1 request per item',
				`${showSpread(nodeBatched.seconds)} s vs ${showSpread(httpOneByOne.seconds)} s`,
				nodeBatched.clean && nodeBatched.seconds.max * 10 <= httpOneByOne.seconds.min,
			),
		],
		data: {
			recipients: SMS_COUNT,
			latencyMs: LATENCY_MS,
			batch: SMS_BATCH,
			repeats,
			variants: summary,
		},
	};
}
