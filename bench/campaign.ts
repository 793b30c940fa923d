/**
 * `npm run bench -- campaign` (or some of its cases by name; issue 45, not in CI): a campaign of BENCH_N recipients (default
 * 100,000) in queue mode (Postgres, Redis, a main and two workers at --concurrency=2, n8n 2.8.4)
 * against the reply server at 20 ms latency, limited to 500 requests per second (a sliding 1 s
 * window per host), beside the same recipients as one big execution on one worker and through n8n's
 * HTTP Request node, and a worker SIGKILLed mid-campaign then the campaign run again. Every case has
 * a fresh cluster. Prints one table; bench/run.ts writes each case's summary, and every run's
 * timeline goes to bench/results/raw/campaign.json (a narrowed run: campaign-subset.json).
 *
 *   BENCH_N        recipients per case (default 100000; 5000 proves the harness in minutes)
 *   BENCH_REPEATS  runs per case (default 1: a long bench); figures show median (min–max) when > 1
 *   BENCH_ITEMS_IN_PARALLEL  the node's Items in Parallel instead of the shipped batch's (20)
 *   BENCH_BATCH_SIZE         recipients per batch instead of the shipped Campaign Settings' 1000
 *   BENCH_RPS                The batch's Max Requests per Second instead of the shipped batch's (495)
 *                            (shared by the batches sending; the HTTP Request twin splits it over
 *                            the workers); 0: none, the node finds the limit by meeting it
 *   BENCH_WORKER_ENV         a JSON object added to every worker's environment instead of the README's
 *                            recommended memory settings (RECOMMENDED_WORKER_ENV); '{}' runs the
 *                            workers with n8n's defaults; the results' conditions name it
 *   BENCH_KILL_REPLACEMENT=1 the kill case starts a replacement worker at once and checks for
 *                            stalled jobs every 5 s (the bench before issue 53; the README's set-up
 *                            has neither)
 *   BENCH_MAIN_ENV           the same for the main (RECOMMENDED_MAIN_ENV: the README's settings)
 *   BENCH_WORKER_PROFILE=<folder>  V8's CPU profile of each worker (cpu-profile-probe.js) from 40 s
 *                            to 60 s after it started, into <folder>/worker.<pid>.cpuprofile (for
 *                            Chrome DevTools); the memory settings are kept.
 *                            BENCH_WORKER_PROFILE_FROM_MS and _TO_MS set another window (0 and
 *                            40000: the worker's start to past a campaign's opening)
 *   BENCH_KEEP_BATCHES=1     the batch workflow and the campaign keep their successful executions (as
 *                            shipped they keep none), so the results show what each one writes
 *                            (keptExecutionData); with BENCH_NODE_TIMES=1, their nodes' times
 *   BENCH_TIMELINE=1         after each case, what the server accepted and refused each second, and
 *                            when the first and last requests came after the campaign was posted
 */
import { mkdirSync } from 'fs';
import { cpus, loadavg, totalmem } from 'os';
import * as path from 'path';

import { packPackage, removePackedTarball } from '../test/e2e/harness';
import { type Sandbox, startSandbox } from '../test/sandbox';
import { type RecipientsServer, startRecipientsServer } from './campaign/recipients-server';
import {
	type CaseRun,
	type CaseSpec,
	LATENCY_MS,
	LIMIT_PER_SECOND,
	SHIPPED_REQUESTS_PER_SECOND,
	runCase,
} from './campaign/run-case';
import { printCampaignTable } from './campaign/table';
import { BATCH_SIZE, SMS_PER_REQUEST } from './campaign/workflows';
import { repeatsFromEnv } from './measure';
import { type ReplyServer, startReplyServer } from './reply-server';
import { envOverride, logSince } from './run-options';
import { RAW_DIR, type Section, currentCommit, writeJson } from './report';
import {
	CAMPAIGN_MAIN_ENV,
	CAMPAIGN_WORKER_CONCURRENCY,
	CAMPAIGN_WORKER_ENV,
} from '../test/queue/cluster/campaign-workers';

const CASES: CaseSpec[] = [
	{
		name: 'campaignTemplate',
		label: 'campaign, Send Template',
		kind: 'template',
		shape: 'campaign',
		sender: 'node',
		workers: 2,
	},
	{
		// The same campaign and settings with a third worker: the limit, not the worker count, sets
		// the pace (issue 53), so nothing is retuned for it.
		name: 'campaignThreeWorkers',
		label: 'campaign, Send Template, three workers',
		kind: 'template',
		shape: 'campaign',
		sender: 'node',
		workers: 3,
	},
	{
		name: 'campaignSms',
		label: 'campaign, Send SMS',
		kind: 'sms',
		shape: 'campaign',
		sender: 'node',
		workers: 2,
		again: true,
	},
	{
		name: 'oneExecutionTemplate',
		label: 'one execution, Send Template',
		kind: 'template',
		shape: 'oneExecution',
		sender: 'node',
		workers: 1,
	},
	{
		name: 'oneExecutionSms',
		label: 'one execution, Send SMS',
		kind: 'sms',
		shape: 'oneExecution',
		sender: 'node',
		workers: 1,
	},
	{
		name: 'httpTemplate',
		label: 'campaign, HTTP Request (template)',
		kind: 'template',
		shape: 'campaign',
		sender: 'http',
		workers: 2,
	},
	{
		name: 'httpSms',
		label: 'campaign, HTTP Request (SMS, 100 per request)',
		kind: 'sms',
		shape: 'campaign',
		sender: 'http',
		workers: 2,
		again: true,
	},
	{
		name: 'killRerun',
		label: 'campaign, Send Template, worker killed, rerun',
		kind: 'template',
		shape: 'campaign',
		sender: 'node',
		workers: 2,
		kill: true,
	},
	{
		name: 'fiveInARow',
		label: 'five template campaigns in a row, same workers',
		kind: 'template',
		shape: 'campaign',
		sender: 'node',
		workers: 2,
		inARow: 5,
	},
];

// Every run and timeline: raw data, out of git; bench/run.ts writes each case's summary.
const RESULTS = path.join(RAW_DIR, 'campaign.json');
const SUBSET_RESULTS = path.join(RAW_DIR, 'campaign-subset.json');
const DEFAULT_N = 100_000;

const started = Date.now();
const log = logSince(started);

function recipientCount(): number {
	const raw = process.env.BENCH_N;
	if (raw === undefined || raw === '') return DEFAULT_N;
	const count = Number(raw);
	if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
		throw new Error(`BENCH_N: ${raw} is not a whole number from 1 to 1,000,000`);
	}
	return count;
}

/** A whole number from an environment variable, or undefined when it is unset. */
function wholeFromEnv(name: string, max: number, min = 1): number | undefined {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return undefined;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < min || value > max) {
		throw new Error(`${name}: ${raw} is not a whole number from ${min} to ${max}`);
	}
	return value;
}

const itemsInParallel = () => wholeFromEnv('BENCH_ITEMS_IN_PARALLEL', 200);
// 0: no Max Requests per Second at all, the node finding the limit by its 429s.
const accountRps = () => wholeFromEnv('BENCH_RPS', 10_000, 0);

/** The workers' memory settings the docs recommend for campaigns. */
const RECOMMENDED_WORKER_ENV: Record<string, string> = { ...CAMPAIGN_WORKER_ENV };
const RECOMMENDED_MAIN_ENV: Record<string, string> = { ...CAMPAIGN_MAIN_ENV };

const workerEnvOverride = () => envOverride('BENCH_WORKER_ENV');
const mainEnvOverride = () => envOverride('BENCH_MAIN_ENV');
const mainEnv = (): Record<string, string> => mainEnvOverride() ?? RECOMMENDED_MAIN_ENV;

const workerEnv = (): Record<string, string> => {
	const env = workerEnvOverride() ?? RECOMMENDED_WORKER_ENV;
	const folder = process.env.BENCH_WORKER_PROFILE;
	if (!folder) return env;
	// The workers write their profiles there when the window ends; a missing folder lost them all.
	mkdirSync(folder, { recursive: true });
	return {
		...env,
		NODE_OPTIONS:
			`${env.NODE_OPTIONS ?? ''} --require ${path.join(__dirname, 'cpu-profile-probe.js')}`.trim(),
		BENCH_CPU_PROFILE_FILE: path.join(path.resolve(folder), 'worker'),
		BENCH_CPU_PROFILE_START_MS: process.env.BENCH_WORKER_PROFILE_FROM_MS ?? '40000',
		BENCH_CPU_PROFILE_STOP_MS: process.env.BENCH_WORKER_PROFILE_TO_MS ?? '60000',
	};
};
/** A process's settings as the results' conditions name them. */
const envText = (env: Record<string, string>, recommended: boolean): string =>
	Object.keys(env).length === 0
		? "none (n8n's defaults)"
		: `${JSON.stringify(env)}${recommended ? " (the README's recommendation)" : ''}`;
const keepBatches = (): boolean => process.env.BENCH_KEEP_BATCHES === '1';
const killReplacement = (): boolean => process.env.BENCH_KILL_REPLACEMENT === '1';

/** The campaign's cases, by name, for bench/cases.ts. */
export const CAMPAIGN_CASES = CASES.map(({ name, label }) => ({ name, label }));

/** Runs the named cases (bench/run.ts: `npm run bench -- campaignTemplate killRerun`). */
export async function run(names: string[]): Promise<{ section: Section; narrowed: boolean }> {
	const count = recipientCount();
	const repeats = repeatsFromEnv(1);
	const cases = CASES.filter((spec) => names.includes(spec.name));
	let sandbox: Sandbox | undefined;
	let server: ReplyServer | undefined;
	let recipients: RecipientsServer | undefined;
	const tarball = packPackage();
	const runs: Record<string, CaseRun[]> = {};
	const failures: Record<string, string[]> = {};
	try {
		// The reply server replays the account's listings from the sandbox; it answers the sends.
		sandbox = await startSandbox({ latencyMs: LATENCY_MS });
		server = await startReplyServer(sandbox);
		recipients = await startRecipientsServer();
		const { apiKey, apiSecret } = sandbox.credentials;
		const shared = {
			tarball,
			server,
			recipients,
			credentialData: { ...sandbox.credentialData },
			apiKey: { user: apiKey, password: apiSecret },
			itemsInParallel: itemsInParallel(),
			accountRps: accountRps(),
			workerEnv: workerEnv(),
			mainEnv: mainEnv(),
			keepBatches: keepBatches(),
			killReplacement: killReplacement(),
			log,
		};
		for (let repeat = 1; repeat <= repeats; repeat++) {
			for (const spec of cases) {
				try {
					const run = await runCase(spec, count, shared);
					(runs[spec.name] ??= []).push(run);
					log(
						`${spec.label}: ${run.wallS.toFixed(1)} s, ${run.distinct} sent, ${run.doubled} twice, ` +
							`${run.refused429} x 429, worker peak ${run.maxWorkerPeakMb.toFixed(0)} MB` +
							(run.batchSendS
								? `, a batch's sends ${run.batchSendS.median.toFixed(2)} s (median), ${run.batchSendS.sending} batches sending on average`
								: '') +
							(run.ok ? '' : `; ${run.problems.join('; ')}`),
					);
				} catch (error) {
					(failures[spec.name] ??= []).push(String(error).slice(0, 6000));
					log(`${spec.label}: FAILED ${String(error).slice(0, 2000)}`);
				}
			}
		}
	} finally {
		await recipients?.stop();
		await server?.stop();
		await sandbox?.stop();
		removePackedTarball(tarball);
	}

	const conditions = {
		n8n: '2.8.4',
		mode: `queue: Postgres, Redis, a main and 2 workers at --concurrency=${CAMPAIGN_WORKER_CONCURRENCY} (one execution: 1 worker; campaignThreeWorkers: 3)`,
		recipients: count,
		batchSize: BATCH_SIZE,
		latencyMs: LATENCY_MS,
		limit: `${LIMIT_PER_SECOND} requests per second per host (sliding 1 s window), 429 beyond; it counts requests: a template send is one request, an SMS request carries up to ${SMS_PER_REQUEST} recipients, so ${count.toLocaleString('en')} SMS are ${Math.ceil(count / SMS_PER_REQUEST).toLocaleString('en')} requests and the limit does not bind them`,
		maxRequestsPerSecond: `${SHIPPED_REQUESTS_PER_SECOND} (${SHIPPED_REQUESTS_PER_SECOND / LIMIT_PER_SECOND} x the limit, as the shipped batch workflows set it), shared by the batches sending (Executions Sharing the Limit, from the record); the HTTP Request twin splits it over the workers`,
		itemsInParallel: itemsInParallel() ?? 'as shipped',
		...(accountRps() !== undefined
			? {
					maxRequestsPerSecondOverride:
						accountRps() === 0 ? 'none (found by 429s)' : `${accountRps()} (BENCH_RPS)`,
				}
			: {}),
		workerEnv: envText(workerEnv(), workerEnvOverride() === undefined),
		mainEnv: envText(mainEnv(), mainEnvOverride() === undefined),
		...(keepBatches() ? { batchExecutions: 'kept (BENCH_KEEP_BATCHES=1)' } : {}),
		killCase: killReplacement()
			? 'a replacement worker at once, stalled-job checks every 5 s (BENCH_KILL_REPLACEMENT=1)'
			: "no replacement, n8n's default stalled-job checks (the README's set-up)",
		repeats,
	};
	const section = printCampaignTable(cases, runs, failures, conditions);
	// A setting other than the defaults narrows every case's figures; fewer cases only the raw file.
	const narrowed =
		count !== DEFAULT_N ||
		itemsInParallel() !== undefined ||
		accountRps() !== undefined ||
		workerEnvOverride() !== undefined ||
		mainEnvOverride() !== undefined ||
		keepBatches() ||
		killReplacement();
	const file = narrowed || cases.length !== CASES.length ? SUBSET_RESULTS : RESULTS;
	writeJson(file, {
		generatedAt: new Date().toISOString(),
		commit: currentCommit(),
		node: process.version,
		machine: {
			cpus: cpus().length,
			cpuModel: cpus()[0]?.model,
			memoryMb: Math.round(totalmem() / 1024 / 1024),
			loadAtEnd: loadavg(),
		},
		totalSeconds: Math.round((Date.now() - started) / 1000),
		conditions,
		runs,
		failures,
	});
	console.log(`Written to ${path.relative(process.cwd(), file)}.`);
	if (
		Object.keys(failures).length ||
		Object.values(runs)
			.flat()
			.some((run) => !run.ok)
	) {
		process.exitCode = 1;
	}
	return { section, narrowed };
}

// Ctrl-C or a kill: exiting runs the cluster's exit hook, which kills its n8n processes and
// Postgres (they run detached, in their own process groups, and would outlive the bench).
process.once('SIGINT', () => process.exit(130));
process.once('SIGTERM', () => process.exit(143));
