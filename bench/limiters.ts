/**
 * 2,000 sends under each limiter model an API gateway commonly uses (limit 100/s), this node at its
 * defaults and with Max Requests per Second a few percent below the limit (as the README advises
 * when the limit is known), beside n8n's HTTP Request node at its best for a known limit (batches of
 * 100 a second, Retry On Fail). Runs interleaved: each repeat runs every case and variant once, so
 * drift on a shared machine hits all alike; figures are medians with min–max.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { LimiterSettings } from '../test/sandbox/limiters';
import { inTurn } from './measure';
import type { ReplyServer } from './reply-server';
import { goal, type Section } from './report';
import { LATENCY_MS, RATE_LIMIT, SEND_COUNT, type SendRun, runSends } from './sends';
import { compare, showSpread, spread } from './spread';
import { KNOWN_LIMIT_SHARE } from './workflows';

export interface LimiterIds {
	nodeDefault: string;
	nodeKnownLimit: string;
	httpRequestBest: string;
}

export const LIMITER_CASES: Array<{
	key: string;
	label: string;
	/** The reply server's limiter, per host, as the sandbox's (test/sandbox/limiters.ts). */
	limiter: LimiterSettings;
	/** Left out of the default run to keep the full bench near 20 minutes; BENCH_LIMITERS adds it. */
	optIn?: boolean;
	/** How long the server takes to answer a 429 (default: as long as a send). */
	refusalLatencyMs?: number;
}> = [
	{
		key: 'sliding',
		label: 'sliding 1 s window',
		limiter: { model: 'sliding', perSecond: RATE_LIMIT },
	},
	{ key: 'fixed', label: 'fixed 1 s windows', limiter: { model: 'fixed', perSecond: RATE_LIMIT } },
	{
		key: 'fixedNoRetryAfter',
		label: 'fixed 1 s windows, no Retry-After',
		limiter: { model: 'fixed', perSecond: RATE_LIMIT, retryAfter: 'none' },
		optIn: true,
	},
	{
		key: 'tokenBucket',
		label: 'token bucket, burst 20',
		limiter: { model: 'tokenBucket', perSecond: RATE_LIMIT, burst: 20 },
	},
	{
		// A gateway's 429 comes back at once, before the answers of sends accepted just before it.
		key: 'tokenBucketFastRefusals',
		label: 'token bucket, burst 20, 429s answered at once',
		limiter: { model: 'tokenBucket', perSecond: RATE_LIMIT, burst: 20 },
		refusalLatencyMs: 0,
		optIn: true,
	},
	{
		// nginx's limit_req without burst: a request sooner than 1 / rate after the last one is
		// refused, whatever the count per second, and the 429 comes back at once.
		key: 'tokenBucketNoBurst',
		label: 'token bucket, burst 1, 429s answered at once',
		limiter: { model: 'tokenBucket', perSecond: RATE_LIMIT, burst: 1 },
		refusalLatencyMs: 0,
		optIn: true,
	},
	{
		// A real per-minute quota (6,000 at 100/s) is never met by 2,000 sends: scaled to a 10 s window
		// (1,000), the run meets it twice, with Retry-After waits of seconds as a per-minute quota gives.
		key: 'perMinute',
		label: 'quota of 1,000 per 10 s window',
		limiter: { model: 'perMinute', perSecond: RATE_LIMIT, quotaWindowMs: 10_000 },
	},
	{
		key: 'change',
		label: 'sliding, drops to 50/s after 15 s',
		limiter: {
			model: 'sliding',
			perSecond: RATE_LIMIT,
			change: { afterMs: 15_000, perSecond: 50 },
		},
	},
];

/** BENCH_LIMITERS=sliding,tokenBucket runs a subset of the cases. */
function selectedCases(): typeof LIMITER_CASES {
	const only = process.env.BENCH_LIMITERS?.split(',').map((key) => key.trim());
	if (!only) return LIMITER_CASES.filter((entry) => !entry.optIn);
	const unknown = only.filter((key) => !LIMITER_CASES.some((entry) => entry.key === key));
	if (unknown.length) {
		throw new Error(
			`BENCH_LIMITERS: unknown ${unknown.join(', ')} (${LIMITER_CASES.map((c) => c.key).join(', ')})`,
		);
	}
	return LIMITER_CASES.filter((entry) => only.includes(entry.key));
}

/** Items that did not come out ok: error items, or missing ones when the run failed. */
function failedItems(run: SendRun): number {
	return run.errorItems + Math.max(0, SEND_COUNT - run.outputItems);
}

/** The ideal time: every send at the limit in force. */
function idealMs(limiter: LimiterSettings): number {
	const change = limiter.change;
	if (!change) return (SEND_COUNT * 1000) / RATE_LIMIT;
	const before = (change.afterMs / 1000) * RATE_LIMIT;
	if (before >= SEND_COUNT) return (SEND_COUNT * 1000) / RATE_LIMIT;
	return change.afterMs + ((SEND_COUNT - before) * 1000) / change.perSecond;
}

export async function benchLimiters(
	folder: UserFolder,
	server: ReplyServer,
	ids: LimiterIds,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const cases = selectedCases();
	const variants = [
		{ key: 'node', label: 'SMSLeopard node, defaults', id: ids.nodeDefault },
		{
			key: 'nodeKnownLimit',
			label: `SMSLeopard node, Max Requests per Second ${KNOWN_LIMIT_SHARE * RATE_LIMIT}`,
			id: ids.nodeKnownLimit,
		},
		{ key: 'http', label: 'HTTP Request, batching + Retry On Fail', id: ids.httpRequestBest },
	] as const;
	const runs: Record<string, SendRun[]> = {};
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const entry of cases) {
			for (const variant of inTurn(variants, repeat - 1)) {
				log(`limiters: ${entry.label}, ${variant.label}, run ${repeat}/${repeats}`);
				const goalMs = 1.2 * idealMs(entry.limiter);
				(runs[`${entry.key}.${variant.key}`] ??= []).push(
					await runSends(folder, server, variant.id, {
						limiter: entry.limiter,
						refusalLatencyMs: entry.refusalLatencyMs,
						// Bounded: a regression is reported, not waited out.
						timeoutMs: 3 * goalMs + 60_000,
					}),
				);
			}
		}
	}
	const rows: Array<Array<string | number>> = [];
	const goals = [];
	const data: Record<string, unknown> = {};
	for (const entry of cases) {
		const ideal = idealMs(entry.limiter);
		const figures = Object.fromEntries(
			variants.map((variant) => {
				const list = runs[`${entry.key}.${variant.key}`];
				return [
					variant.key,
					{
						seconds: spread(list.map((run) => run.nodeMs / 1000)),
						failed: spread(list.map(failedItems)),
						doubles: spread(list.map((run) => run.check.doubles)),
						refused429: spread(list.map((run) => run.check.refused429)),
						runs: list,
					},
				];
			}),
		) as Record<
			'node' | 'nodeKnownLimit' | 'http',
			{
				seconds: ReturnType<typeof spread>;
				failed: ReturnType<typeof spread>;
				doubles: ReturnType<typeof spread>;
				refused429: ReturnType<typeof spread>;
				runs: SendRun[];
			}
		>;
		for (const variant of variants) {
			const f = figures[variant.key];
			rows.push([
				`${entry.label}: ${variant.label}`,
				showSpread(f.seconds),
				num2(f.seconds.median / (ideal / 1000)),
				showSpread(f.failed, 0),
				showSpread(f.doubles, 0),
				showSpread(f.refused429, 0),
			]);
		}
		const node = figures.node;
		const worstNodeSeconds = node.seconds.max;
		goals.push(
			goal(
				`${entry.label}: SMSLeopard defaults, 0 failed, 0 sent twice, ≤ 1.2 × ideal ${num2(ideal / 1000)} s in every run`,
				`slowest ${num2(worstNodeSeconds)} s, failed max ${node.failed.max}, doubles max ${node.doubles.max}`,
				node.runs.every((run) => run.ok) &&
					node.failed.max === 0 &&
					node.doubles.max === 0 &&
					worstNodeSeconds <= (1.2 * ideal) / 1000,
			),
		);
		data[entry.key] = {
			label: entry.label,
			limiter: entry.limiter,
			idealMs: ideal,
			node: figures.node,
			nodeKnownLimit: figures.nodeKnownLimit,
			httpRequest: figures.http,
			timeVsHttp: compare(figures.node.seconds, figures.http.seconds, 's'),
		};
	}
	return {
		title: `Limiters: ${SEND_COUNT.toLocaleString('en')} sends at ${RATE_LIMIT}/s under each limiter model, ${LATENCY_MS} ms latency`,
		notes: [
			`Median (min–max) of ${repeats} interleaved run(s); s: the sending node's own execution time.`,
			'HTTP Request 4.2: batches of 100 items every 1,000 ms, Retry On Fail, On Error: Continue',
			'(so failed items are counted; n8n retries a node only when it throws), Never Error off.',
			'vs ideal: the median over N / limit; failed: error or missing items; doubles: destinations',
			'the sandbox accepted more than once; 429s: requests it refused.',
		],
		columns: ['limiter: variant', 's', 'vs ideal', 'failed', 'doubles', '429s'],
		rows,
		goals,
		data: {
			sends: SEND_COUNT,
			latencyMs: LATENCY_MS,
			rateLimitPerSecond: RATE_LIMIT,
			repeats,
			cases: data,
		},
	};
}

const num2 = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
