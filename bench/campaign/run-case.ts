/**
 * One measured case on a fresh cluster: publish the workflows, POST the campaign (or the one big
 * execution), wait until every execution settled, then read what the reply server counted, what
 * Postgres grew by and what each worker's process group peaked at. The kill case SIGKILLs a worker's
 * group once KILL_AT_SHARE of the sends went out and, as the README's set-up has none, starts no
 * replacement and keeps n8n's own stalled-job checks (BENCH_KILL_REPLACEMENT=1: a replacement at once
 * and checks every 5 s, the bench before issue 53), lets the campaign settle, then runs the
 * campaign again and checks everyone was sent exactly once apart from at most the killed worker's
 * batches (CAMPAIGN_WORKER_CONCURRENCY) recorded as maybe sent.
 */
import { readFileSync } from 'fs';
import { loadavg } from 'os';

import { busiestWindow } from '../../test/sandbox/limiters';
import type { QueueProcess } from '../../test/queue/cluster/queue-cluster';
import { CAMPAIGN_WORKER_CONCURRENCY } from '../../test/queue/cluster/campaign-workers';
import { isAlive, killGroup, tail } from '../../test/queue/cluster/services';
import { CAMPAIGN_KEY_HEADER, TEST_CAMPAIGN_KEY } from '../../test/queue/campaign/campaign-kit';
import type { ReplyServer, ReplyStats } from '../reply-server';
import { printTimeline } from '../timeline';
import { type CaseCluster, publish, startCaseCluster } from './cluster-setup';
import { type GroupPeak, GroupRssSampler, postmasterOf } from './group-rss';
import { printNodeTimes } from './node-times';
import {
	type Growth,
	type Psql,
	dataTableRows,
	executionDataBytes,
	executionDataToastVacuums,
	executions,
	growth,
	psql,
	sizes,
} from './postgres';
import type { RecipientsServer } from './recipients-server';
import { type SecondCampaign, runSecondCampaign } from './second-campaign';
import {
	shippedBatchPath,
	SHIPPED_CAMPAIGN_PATH,
	shippedBatch,
	shippedCampaign,
	shippedPlan,
	shippedRequestsPerSecond,
	shippedSendNode,
} from './shipped';
import { runningN8nProcesses, strayWarning } from './strays';
import {
	BATCH_SIZE,
	type Kind,
	ONE_EXECUTION_PATH,
	type Sender,
	oneExecutionWorkflow,
} from './workflows';

export const LIMIT_PER_SECOND = 500;
export const LATENCY_MS = 20;
/** Max Requests per Second as shipped, shared by the batches sending (not split). */
export const SHIPPED_REQUESTS_PER_SECOND = shippedRequestsPerSecond();
/**
 * The kill case kills a worker once this share of the recipients was sent, plus half a batch: both
 * workers then are about a quarter into a batch, not between two.
 */
const KILL_AT_SHARE = 0.4;
const POLL_MS = 2000;

export interface CaseSpec {
	name: string;
	label: string;
	kind: Kind;
	shape: 'campaign' | 'oneExecution';
	sender: Sender;
	workers: number;
	kill?: boolean;
	/**
	 * Runs the campaign a second time on the same database once Postgres vacuumed (see
	 * second-campaign.ts): its growth is the steady one.
	 */
	again?: boolean;
	/**
	 * Campaigns in a row on the same workers, none restarted (as on a real server): each one's peak
	 * memory per worker and the main's, so memory that creeps from campaign to campaign shows.
	 */
	inARow?: number;
}

/** One campaign of a case run several in a row (`inARow`). */
export interface CampaignInARow {
	campaign: number;
	wallS: number;
	sent: number;
	doubled: number;
	refused429: number;
	/** Peak RSS of each worker's process group and the main's, in MB, during this campaign. */
	peaksMb: Record<string, number>;
	/**
	 * Each group's peak sample: [seconds into the campaign, MB, n8n's MB, its task runner's], so a
	 * peak at the start (the plan) tells apart from one while sending.
	 */
	peakSamples: Record<string, [number, number, number, number]>;
}

export interface Shared {
	tarball: string;
	server: ReplyServer;
	recipients: RecipientsServer;
	credentialData: Record<string, string>;
	apiKey: { user: string; password: string };
	/** Items in Parallel for this node instead of the shipped batch's, when set. */
	itemsInParallel?: number;
	/** The batch's Max Requests per Second instead of the shipped one, when set. */
	accountRps?: number;
	/** Added to every worker's environment (BENCH_WORKER_ENV), when set. */
	workerEnv?: Record<string, string>;
	/** Added to the main's environment (BENCH_MAIN_ENV), when set. */
	mainEnv?: Record<string, string>;
	/** The batch workflow keeps its successful executions (BENCH_KEEP_BATCHES=1). */
	keepBatches?: boolean;
	/** The kill case starts a replacement worker and shortens the stalled-job checks. */
	killReplacement?: boolean;
	log(message: string): void;
}

export interface KillOutcome {
	sentAtKill: number;
	/** A replacement worker started at once, with stalled-job checks every 5 s (not the README's). */
	replacement: boolean;
	/** Seconds from the kill until n8n marked the killed execution ended (its own time to notice). */
	noticedAfterS: number | undefined;
	/** Sends a second in the 10 s before the kill, and from 20 to 30 s after it (the survivors'). */
	ratesAroundKill: { before: number; after: number };
	/** After the first run settled: recipients sent, and the executions n8n left behind. */
	sentBeforeRerun: number;
	executionsBeforeRerun: Record<string, number>;
	rerunBatches: number;
	rerunSends: number;
	/** Rows still "sending" (their recipients maybe sent), and every maybe-sent recipient. */
	sendingRows: number;
	maybeSent: number;
	neverSent: number;
	neverSentOutsideMaybe: number;
	/** Executions each worker started (its log), and executions started more than once. */
	startedBy: Record<string, number>;
	startedTwice: string[];
	/**
	 * Every recipient sent exactly once, apart from at most the killed worker's batches (one per job
	 * it ran at once) recorded as maybe sent.
	 */
	pass: boolean;
}

export interface CaseRun {
	ok: boolean;
	problems: string[];
	loadBefore: number;
	wallS: number;
	/** Seconds from the POST to the trigger's answer: the campaign answers once its plan queued every batch. */
	answeredS: number;
	sendSpanS: number;
	distinct: number;
	notSent: number;
	doubled: number;
	requests: number;
	refused429: number;
	busiestSecond: number;
	sendsPerS: number;
	/** Accepted requests per second from the 10th to the 90th percentile of their arrivals: the pace
	 * once started, without the opening (the list, the plan) and the last batches' tail. */
	steadyRequestsPerS: number;
	/**
	 * Template cases: seconds from a batch's first send to its last (median, min, max over the
	 * batches): at 245 a second, 1,000 sends take 4.1 s; a longer cycle per batch is time between.
	 * `sending`: how many batches were sending on average from the first send to the last (the
	 * spans' sum over that time): 2 with two workers that never pause between batches.
	 */
	batchSendS: { median: number; min: number; max: number; sending: number } | undefined;
	requestsPerS: number;
	serverCpuMs: number;
	workers: Record<string, GroupPeak>;
	maxWorkerPeakMb: number;
	/** The worker(s) that ran the campaign's parent (or the one execution). */
	triggerRanOn: string[];
	/** The main's process group (it queues, answers webhooks and saves executions). */
	main: GroupPeak | undefined;
	/** CPU per recipient sent: all workers' groups together, and the main's. */
	workerCpuMsPerSend: number;
	mainCpuMsPerSend: number;
	/** Postgres's and Redis's CPU per recipient sent (their process groups). */
	storeCpuMsPerSend: number;
	/**
	 * Growth per table; keptExecutionData: the execution data n8n still holds, per workflow id (by
	 * workflow: campaign, batch, one execution; the rest of execution_data's growth is space of executions deleted after success, not yet reused).
	 */
	pg: Growth & {
		beforeBytes: number;
		afterBytes: number;
		keptExecutionData: Record<string, number>;
	};
	executionStatus: Record<string, number>;
	records: {
		rows: number;
		byStatus: Record<string, number>;
		sent: number;
		maybeSent: number;
		notSent: number;
	};
	kill?: KillOutcome;
	again?: SecondCampaign;
	inARow?: CampaignInARow[];
}

const peaksOf = (groups: Record<string, GroupPeak>): Record<string, number> =>
	Object.fromEntries(Object.entries(groups).map(([name, peak]) => [name, Math.round(peak.peakMb)]));
const peakSamplesOf = (groups: Record<string, GroupPeak>) =>
	Object.fromEntries(
		Object.entries(groups).map(([name, peak]) => [
			name,
			peak.timeline.reduce<[number, number, number, number]>(
				(top, sample) => (sample[1] > top[1] ? sample : top),
				[0, 0, 0, 0],
			),
		]),
	);

const tally = (values: string[]) =>
	values.reduce<Record<string, number>>(
		(all, value) => ({ ...all, [value]: (all[value] ?? 0) + 1 }),
		{},
	);

/** A worker (other than the one the case killed) that exited, with the end of its log. */
function deadWorker(workers: QueueProcess[], killedPid: number | undefined): string | undefined {
	const gone = workers.find((worker) => worker.pid !== killedPid && !isAlive(worker.pid));
	if (gone === undefined) return undefined;
	return `${gone.name} exited during the case; the end of its log:\n${tail(gone.log, 2000)}`;
}

/** Waits until the run's trigger execution ended and nothing is new or running (bounded). */
async function settle(
	db: Psql,
	triggerWorkflowId: string | undefined,
	after: number,
	deadline: number,
	deadBefore: number | undefined,
	dead: () => string | undefined,
): Promise<void> {
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		// A worker that died on its own (out of memory, say) leaves its execution "running": fail now,
		// with why, instead of waiting out the deadline.
		const died = dead();
		if (died !== undefined) throw new Error(died);
		const rows = executions(db);
		const started = rows.filter(
			(row) => row.workflowId === triggerWorkflowId && (row.startedAt ?? after) >= after - 1000,
		);
		// undefined: the trigger already ended (the campaign answers its webhook when done, and keeps
		// no successful execution to look at).
		const triggerDone =
			triggerWorkflowId === undefined ||
			started.some((row) => !['new', 'running', 'waiting'].includes(row.status));
		// A killed worker's execution may stay "running" until n8n notices; it is no longer waited for.
		const busy = rows.filter(
			(row) =>
				['new', 'running', 'waiting'].includes(row.status) &&
				!(
					deadBefore !== undefined &&
					row.status === 'running' &&
					(row.startedAt ?? 0) < deadBefore
				),
		);
		if (triggerDone && busy.length === 0) return;
	}
	throw new Error(`not settled by the deadline (${new Date(deadline).toISOString()})`);
}

function readRecords(db: Psql, dataTableId: string) {
	const rows = dataTableRows(db, dataTableId);
	const sum = (key: string) => rows.reduce((total, row) => total + (Number(row[key]) || 0), 0);
	return {
		all: rows,
		summary: {
			rows: rows.length,
			byStatus: tally(rows.map((row) => String(row.status))),
			sent: sum('sentCount'),
			maybeSent: sum('maybeSentCount'),
			notSent: sum('notSentCount'),
		},
	};
}

/** The largest of many numbers: Math.max(...list) overflows the call stack at some 100,000. */
const largest = (values: number[]): number =>
	values.reduce((most, value) => (value > most ? value : most), Number.NEGATIVE_INFINITY);
const smallest = (values: number[]): number =>
	values.reduce((least, value) => (value < least ? value : least), Number.POSITIVE_INFINITY);

/**
 * Each template send is one POST with one recipient: the i-th accepted POST (receivedAt) is the i-th
 * recipient first seen (counts keeps insertion order: no key is an array index), and the record's
 * rows say which batch each recipient was planned in (whatever sizes Plan Batches chose).
 */
function batchSendSeconds(
	stats: ReplyStats,
	rows: Array<Record<string, unknown>>,
): CaseRun['batchSendS'] {
	const destinations = Object.keys(stats.counts);
	if (destinations.length !== stats.receivedAt.length) return undefined;
	const batchOf = new Map<string, string>();
	for (const row of rows)
		for (const phone of parseList(row.recipients)) batchOf.set(digits(phone), String(row.batch));
	const spans = new Map<string, { first: number; last: number }>();
	destinations.forEach((destination, index) => {
		const batch = batchOf.get(digits(destination)) ?? 'unrecorded';
		const at = stats.receivedAt[index];
		const span = spans.get(batch) ?? { first: at, last: at };
		span.first = Math.min(span.first, at);
		span.last = Math.max(span.last, at);
		spans.set(batch, span);
	});
	const seconds = [...spans.values()].map((span) => (span.last - span.first) / 1000);
	seconds.sort((a, b) => a - b);
	const wholeS = (largest(stats.receivedAt) - smallest(stats.receivedAt)) / 1000;
	const spanSum = seconds.reduce((sum, value) => sum + value, 0);
	return {
		median: seconds[Math.floor(seconds.length / 2)],
		min: seconds[0],
		max: seconds[seconds.length - 1],
		sending: wholeS > 0 ? Math.round((spanSum / wholeS) * 100) / 100 : Number.NaN,
	};
}

function steadyRate(times: number[]): number {
	if (times.length < 10) return Number.NaN;
	const sorted = [...times].sort((a, b) => a - b);
	const from = Math.floor(sorted.length * 0.1);
	const to = Math.floor(sorted.length * 0.9);
	return ((to - from) * 1000) / Math.max(1, sorted[to] - sorted[from]);
}

/** Which worker started which execution ("Worker started execution N" in its log). */
function startedByWorker(workers: QueueProcess[]): {
	startedBy: Record<string, number>;
	startedTwice: string[];
	workerOf: Map<string, string>;
} {
	const seen = new Map<string, number>();
	const workerOf = new Map<string, string>();
	const startedBy: Record<string, number> = {};
	for (const worker of workers) {
		const ids = [...readLog(worker.log).matchAll(/Worker started execution (\d+)/g)].map(
			(m) => m[1],
		);
		startedBy[worker.name] = ids.length;
		for (const id of ids) {
			seen.set(id, (seen.get(id) ?? 0) + 1);
			workerOf.set(id, worker.name);
		}
	}
	const startedTwice = [...seen].filter(([, times]) => times > 1).map(([id]) => id);
	return { startedBy, startedTwice, workerOf };
}

function readLog(file: string): string {
	try {
		return readFileSync(file, 'utf8');
	} catch {
		return '';
	}
}

/** The service may be sent a number without its "+": numbers are compared by their digits. */
const digits = (phone: string) => phone.replace(/\D/g, '');

/** A record's list of numbers: comma-separated, an entry maybe "phone:messageId". */
const parseList = (value: unknown): string[] =>
	String(value ?? '')
		.split(',')
		.map((entry) => entry.split(':')[0].trim())
		.filter(Boolean);

export async function runCase(spec: CaseSpec, count: number, shared: Shared): Promise<CaseRun> {
	const { server, recipients, log } = shared;
	const loadBefore = loadavg()[0];
	log(
		`${spec.label}: starting a cluster (${spec.workers} worker(s)), load ${loadBefore.toFixed(2)}` +
			strayWarning(runningN8nProcesses()),
	);
	const setup: CaseCluster = await startCaseCluster(
		{
			tarball: shared.tarball,
			workers: spec.workers,
			quickStallCheck: spec.kill && shared.killReplacement,
			workerEnv: shared.workerEnv,
			mainEnv: shared.mainEnv,
		},
		server,
		shared.credentialData,
		shared.apiKey,
	);
	const sampler = new GroupRssSampler();
	try {
		const { cluster } = setup;
		const db = psql(cluster.postgres.port);
		const settings = {
			kind: spec.kind,
			sender: spec.sender,
			accountRps: shared.accountRps ?? SHIPPED_REQUESTS_PER_SECOND,
			workers: spec.workers,
			itemsInParallel: shared.itemsInParallel,
			keepSuccessful: shared.keepBatches,
			credential: spec.sender === 'node' ? setup.nodeCredential : setup.basicAuth,
			campaignKey: setup.campaignKey,
			chatUrl: server.chatUrl,
			contactsUrl: server.contactsUrl,
			channel: server.channel,
		};
		let triggerId: string;
		let triggerPath: string;
		const workflowNames: Record<string, string> = {};
		if (spec.shape === 'campaign') {
			const batchId = await publish(setup, shippedBatch(settings), shippedBatchPath(spec.kind));
			workflowNames[batchId] = 'batch';
			// The plan first: the campaign picks it in Plan the Campaign. No webhook to wait for.
			const planId = await setup.rest.activateWorkflow(
				shippedPlan(setup.nodeCredential, setup.campaignKey, shared.keepBatches),
			);
			workflowNames[planId] = 'plan';
			triggerId = await publish(
				setup,
				shippedCampaign(
					setup.nodeCredential,
					setup.campaignKey,
					setup.formLogin,
					spec.kind,
					planId,
					shared.keepBatches,
				),
				SHIPPED_CAMPAIGN_PATH,
			);
			triggerPath = SHIPPED_CAMPAIGN_PATH;
		} else {
			const workflow = oneExecutionWorkflow(spec.kind, shippedSendNode(settings));
			triggerId = await publish(setup, workflow, ONE_EXECUTION_PATH);
			triggerPath = ONE_EXECUTION_PATH;
		}
		workflowNames[triggerId] = spec.shape === 'campaign' ? 'campaign' : 'one execution';
		const before = sizes(db);
		const resetServer = async () =>
			await server.reset({
				latencyMs: LATENCY_MS,
				limiter: { model: 'sliding', perSecond: LIMIT_PER_SECOND },
			});
		await resetServer();
		for (const worker of cluster.workers) sampler.add(worker.name, worker.pid);
		sampler.add('main', cluster.main.pid);
		// Postgres and Redis: the rest of the machine's CPU a send costs, beside the sandbox's.
		sampler.addFamily('postgres', postmasterOf(cluster.postgres.port));
		sampler.add('redis', cluster.redis.pid);
		sampler.start();
		// The shipped campaign reads a CSV list, as from a published sheet; the one execution JSON.
		const body = (campaign: string) =>
			spec.shape === 'campaign'
				? { campaign, recipientsUrl: recipients.urlFor(count, 'csv') }
				: { recipientsUrl: recipients.urlFor(count) };
		/** Both answer at once: the campaign once it claimed the campaign (202), its plan goes on. */
		const startCampaign = async (campaign = 'bench'): Promise<string> => {
			const answer = await fetch(`${cluster.mainUrl}/webhook/${triggerPath}`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					...(spec.shape === 'campaign' ? { [CAMPAIGN_KEY_HEADER]: TEST_CAMPAIGN_KEY } : {}),
				},
				body: JSON.stringify(body(campaign)),
			});
			const text = await answer.text();
			if (!answer.ok) throw new Error(`POST ${triggerPath}: HTTP ${answer.status} ${text}`);
			return text;
		};
		const idealS = count / LIMIT_PER_SECOND;
		const postedAt = Date.now();
		const plan = await startCampaign();
		const answeredS = (Date.now() - postedAt) / 1000;
		log(
			`${spec.label}: ${count} recipients posted, ideal ${idealS} s; answer after ${answeredS.toFixed(1)} s: ${plan.slice(0, 300)}`,
		);
		const deadline = postedAt + Math.max(300_000, 4 * idealS * 1000);

		const allWorkers = [...cluster.workers];
		let killedAt: number | undefined;
		let sentAtKill = 0;
		if (spec.kill) {
			const victim = cluster.workers[0];
			while (Date.now() < deadline) {
				sentAtKill = (await server.progress()).sends;
				if (sentAtKill >= count * KILL_AT_SHARE + BATCH_SIZE / 2) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			killedAt = Date.now();
			killGroup(victim.pid);
			log(
				`${spec.label}: SIGKILLed ${victim.name}'s process group after ${sentAtKill} sends` +
					(shared.killReplacement ? '; starting a replacement' : '; no replacement'),
			);
			if (shared.killReplacement) {
				const replacement = await cluster.addWorker('worker-3');
				allWorkers.push(replacement);
				sampler.add(replacement.name, replacement.pid);
			}
		}
		// Both webhooks answer at once: the one execution is waited for, the campaign's runs all are.
		const waitFor = spec.shape === 'campaign' ? undefined : triggerId;
		const victimPid = killedAt === undefined ? undefined : cluster.workers[0].pid;
		const dead = () => deadWorker(allWorkers, victimPid);
		/** A campaign run again (the rerun, the second campaign): every execution since `since` ended. */
		const settleCampaignFrom = async (since: number, deadBefore?: number) =>
			await settle(
				db,
				undefined,
				since,
				since + Math.max(300_000, 4 * idealS * 1000),
				deadBefore,
				dead,
			);
		await settle(db, waitFor, postedAt, deadline, killedAt, dead);
		// Read as soon as the campaign settled: the second campaign waits for a vacuum after this.
		const vacuumsAtEnd = spec.again ? executionDataToastVacuums(db) : 0;
		let stats: ReplyStats = await server.stats();
		// The end: the last execution n8n kept, the last record written (the batch workflow keeps no
		// successful execution), the last send answered.
		const endedAt = Math.max(
			...executions(db).map((row) => row.stoppedAt ?? 0),
			...dataTableRows(db, setup.dataTableId).map((row) => Date.parse(String(row.updatedAt)) || 0),
			...(stats.receivedAt.length ? [largest(stats.receivedAt) + LATENCY_MS] : []),
		);
		const problems: string[] = [];
		let kill: KillOutcome | undefined;
		if (spec.kill) {
			const sentBeforeRerun = stats.distinct;
			const executionsBeforeRerun = tally(executions(db).map((row) => row.status));
			log(`${spec.label}: settled with ${sentBeforeRerun} sent; running the campaign again`);
			const rerunAt = Date.now();
			const batchesBefore = executions(db).length;
			const rerunPlan = await startCampaign();
			log(`${spec.label}: the rerun answered ${rerunPlan.slice(0, 600)}`);
			await settleCampaignFrom(rerunAt, killedAt);
			stats = await server.stats();
			const records = readRecords(db, setup.dataTableId);
			const maybe = new Set<string>();
			let sendingRows = 0;
			for (const row of records.all) {
				if (row.status === 'done')
					for (const phone of parseList(row.maybeSent)) maybe.add(digits(phone));
				else if (String(row.status).startsWith('sending')) {
					sendingRows += 1;
					for (const phone of parseList(row.recipients)) maybe.add(digits(phone));
				}
			}
			const texted = new Set(Object.keys(stats.counts).map(digits));
			const never = recipients.phones(count).filter((phone) => !texted.has(digits(phone)));
			const outside = never.filter((phone) => !maybe.has(digits(phone))).length;
			const { startedBy, startedTwice } = startedByWorker(allWorkers);
			const at = (from: number, to: number) =>
				stats.receivedAt.filter((time) => time >= from && time < to).length / ((to - from) / 1000);
			const killedAtMs = killedAt ?? 0;
			const lost = executions(db).find(
				(row) => (row.startedAt ?? Infinity) < killedAtMs && row.status !== 'success',
			);
			kill = {
				replacement: shared.killReplacement === true,
				noticedAfterS:
					lost?.stoppedAt !== undefined && lost.stoppedAt !== null
						? (lost.stoppedAt - killedAtMs) / 1000
						: undefined,
				ratesAroundKill: {
					before: at(killedAtMs - 10_000, killedAtMs),
					after: at(killedAtMs + 20_000, killedAtMs + 30_000),
				},
				startedBy,
				startedTwice,
				sentAtKill,
				sentBeforeRerun,
				executionsBeforeRerun,
				// The rerun's own executions: its parent and the batches it posted.
				rerunBatches: Math.max(0, executions(db).length - batchesBefore - 1),
				rerunSends: stats.distinct - sentBeforeRerun,
				sendingRows,
				maybeSent: maybe.size,
				neverSent: never.length,
				neverSentOutsideMaybe: outside,
				pass:
					stats.doubles === 0 &&
					outside === 0 &&
					sendingRows <= CAMPAIGN_WORKER_CONCURRENCY &&
					maybe.size <= CAMPAIGN_WORKER_CONCURRENCY * BATCH_SIZE,
			};
			if (!kill.pass) problems.push(`kill and rerun: ${JSON.stringify(kill)}`);
		}
		const groups = sampler.stop();
		// BENCH_TIMELINE=1: what the server accepted and refused each second, to see where time went.
		printTimeline(stats, spec.label, postedAt);
		const batchWorkflowId = Object.keys(workflowNames).find((id) => workflowNames[id] === 'batch');
		if (batchWorkflowId) printNodeTimes(db, batchWorkflowId);
		if (spec.shape === 'campaign') printNodeTimes(db, triggerId, 'the campaign (its opening)');
		const planWorkflowId = Object.keys(workflowNames).find((id) => workflowNames[id] === 'plan');
		if (planWorkflowId) printNodeTimes(db, planWorkflowId, 'the plan');
		const workers = Object.fromEntries(
			Object.entries(groups).filter(([name]) => name.startsWith('worker')),
		);
		const workerCpuMs = Object.values(workers).reduce((sum, group) => sum + group.cpuMs, 0);
		const after = sizes(db);
		const grown = growth(before, after);
		const { all: recordRows, summary: records } = readRecords(db, setup.dataTableId);
		const status = tally(executions(db).map((row) => row.status));
		// Which worker ran the campaign's parent (or the one execution): its memory holds the list.
		const { workerOf } = startedByWorker(allWorkers);
		// From the executions n8n kept, else (a campaign keeps none that succeeded) the first one a
		// worker started: the parent, which queued every other.
		const kept = executions(db).filter((row) => row.workflowId === triggerId);
		const first = [...workerOf.keys()].map(Number).sort((a, b) => a - b)[0];
		const triggerRanOn = kept.length
			? kept.map((row) => workerOf.get(String(row.id)) ?? '?')
			: [workerOf.get(String(first)) ?? '?'];
		const keptExecutionData = Object.fromEntries(
			Object.entries(executionDataBytes(db)).map(([id, bytes]) => [workflowNames[id] ?? id, bytes]),
		);
		const again = spec.again
			? await runSecondCampaign({
					db,
					server,
					vacuumsAtEnd,
					firstEnd: after,
					count,
					resetServer,
					start: startCampaign,
					settle: async (since) => await settleCampaignFrom(since),
					log: (message) => log(`${spec.label}: ${message}`),
				})
			: undefined;
		const inARow = spec.inARow
			? await campaignsInARow(spec.inARow, {
					first: {
						campaign: 1,
						wallS: (endedAt - postedAt) / 1000,
						sent: stats.distinct,
						doubled: stats.doubles,
						refused429: stats.refused429,
						peaksMb: peaksOf(groups),
						peakSamples: peakSamplesOf(groups),
					},
					groups: [...cluster.workers, { name: 'main', pid: cluster.main.pid }],
					run: async (campaign) => {
						await resetServer();
						const since = Date.now();
						await startCampaign(`bench-${campaign}`);
						await settleCampaignFrom(since);
						const after = await server.stats();
						return {
							wallS: (largest(after.receivedAt) + LATENCY_MS - since) / 1000,
							sent: after.distinct,
							doubled: after.doubles,
							refused429: after.refused429,
						};
					},
					log: (message) => log(`${spec.label}: ${message}`),
				})
			: undefined;
		if (inARow?.some((each) => each.sent !== count || each.doubled > 0))
			problems.push(
				`campaigns in a row: ${JSON.stringify(inARow.map(({ peaksMb, ...rest }) => rest))}`,
			);
		if (again && (again.notSent > 0 || again.doubled > 0))
			problems.push(`second campaign: ${again.notSent} not sent, ${again.doubled} twice`);
		const wallS = (endedAt - postedAt) / 1000;
		const sendSpanS =
			stats.receivedAt.length > 1
				? (largest(stats.receivedAt) - smallest(stats.receivedAt)) / 1000
				: Number.NaN;
		const notSent = count - stats.distinct;
		if (!spec.kill && notSent > 0) problems.push(`${notSent} recipients not sent`);
		if (stats.doubles > 0) problems.push(`${stats.doubles} recipients sent twice`);
		const failedExecutions = Object.entries(status).filter(([key]) => key !== 'success');
		if (!spec.kill && failedExecutions.length)
			problems.push(`executions: ${JSON.stringify(status)}`);
		return {
			ok: problems.length === 0,
			problems,
			loadBefore,
			wallS,
			answeredS,
			sendSpanS,
			distinct: stats.distinct,
			notSent,
			doubled: stats.doubles,
			requests: stats.requests,
			refused429: stats.refused429,
			busiestSecond: busiestWindow(stats.receivedAt),
			sendsPerS: stats.sends / wallS,
			requestsPerS: stats.requests / wallS,
			steadyRequestsPerS: steadyRate(stats.receivedAt),
			batchSendS: spec.kind === 'template' ? batchSendSeconds(stats, recordRows) : undefined,
			serverCpuMs: stats.cpuMs,
			workers,
			maxWorkerPeakMb: Math.max(...Object.values(workers).map((peak) => peak.peakMb)),
			main: groups.main,
			triggerRanOn,
			workerCpuMsPerSend: workerCpuMs / Math.max(1, stats.sends),
			mainCpuMsPerSend: (groups.main?.cpuMs ?? Number.NaN) / Math.max(1, stats.sends),
			storeCpuMsPerSend:
				((groups.postgres?.cpuMs ?? Number.NaN) + (groups.redis?.cpuMs ?? Number.NaN)) /
				Math.max(1, stats.sends),
			pg: {
				...grown,
				beforeBytes: before.databaseBytes,
				afterBytes: after.databaseBytes,
				keptExecutionData,
			},
			executionStatus: status,
			records,
			kill,
			again,
			inARow,
		};
	} catch (error) {
		sampler.stop();
		const logs = setup.cluster.logs();
		throw new Error(`${spec.label}: ${String(error)}\n${logs.slice(-4000)}`);
	} finally {
		setup.cluster.stop();
	}
}

/** The rest of `total` campaigns after the first, each with its own sampler of the same groups. */
async function campaignsInARow(
	total: number,
	options: {
		first: CampaignInARow;
		groups: Array<{ name: string; pid: number | undefined }>;
		run: (
			campaign: number,
		) => Promise<Omit<CampaignInARow, 'campaign' | 'peaksMb' | 'peakSamples'>>;
		log(message: string): void;
	},
): Promise<CampaignInARow[]> {
	const series = [options.first];
	for (let campaign = 2; campaign <= total; campaign++) {
		const sampler = new GroupRssSampler();
		for (const group of options.groups) sampler.add(group.name, group.pid);
		sampler.start();
		let peaks: Record<string, GroupPeak> = {};
		let outcome: Omit<CampaignInARow, 'campaign' | 'peaksMb' | 'peakSamples'>;
		try {
			outcome = await options.run(campaign);
		} finally {
			peaks = sampler.stop();
		}
		const each = {
			campaign,
			...outcome,
			peaksMb: peaksOf(peaks),
			peakSamples: peakSamplesOf(peaks),
		};
		series.push(each);
		options.log(
			`campaign ${campaign} of ${total}: ${each.wallS.toFixed(1)} s, peaks ${JSON.stringify(each.peaksMb)} MB, ` +
				`at [s, MB, n8n, runner] ${JSON.stringify(each.peakSamples)}`,
		);
	}
	return series;
}
