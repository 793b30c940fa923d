/**
 * One measured case on a fresh cluster: publish the workflows, POST the campaign (or the one big
 * execution), wait until every execution settled, then read what the reply server counted, what
 * Postgres grew by and what each worker's process group peaked at. The kill case SIGKILLs a worker's
 * group once LIMIT_KILL_SHARE of the sends went out, starts a replacement, lets the campaign settle,
 * then runs the campaign again and checks everyone was sent exactly once apart from at most one
 * batch recorded as maybe sent.
 */
import { loadavg } from 'os';

import { busiestWindow } from '../../test/sandbox/limiters';
import { killGroup } from '../../test/queue/cluster/services';
import type { ReplyServer, ReplyStats } from '../reply-server';
import { type CaseCluster, publish, startCaseCluster } from './cluster-setup';
import { type GroupPeak, GroupRssSampler } from './group-rss';
import { type Growth, type Psql, dataTableRows, executions, growth, psql, sizes } from './postgres';
import type { RecipientsServer } from './recipients-server';
import {
	BATCH_PATH,
	BATCH_SIZE,
	CAMPAIGN_PATH,
	type Kind,
	ONE_EXECUTION_PATH,
	type Sender,
	batchWorkflow,
	campaignWorkflow,
	oneExecutionWorkflow,
} from './workflows';

export const LIMIT_PER_SECOND = 500;
export const LATENCY_MS = 20;
/** Max Requests per Second: this share of the limit, split over the workers. */
export const LIMIT_SHARE = 0.98;
/** The kill case kills a worker once this share of the recipients was sent. */
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
}

export interface Shared {
	tarball: string;
	server: ReplyServer;
	recipients: RecipientsServer;
	credentialData: Record<string, string>;
	apiKey: { user: string; password: string };
	log(message: string): void;
}

export interface KillOutcome {
	sentAtKill: number;
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
	/** Every recipient sent exactly once, apart from at most one batch recorded as maybe sent. */
	pass: boolean;
}

export interface CaseRun {
	ok: boolean;
	problems: string[];
	loadBefore: number;
	wallS: number;
	sendSpanS: number;
	distinct: number;
	notSent: number;
	doubled: number;
	requests: number;
	refused429: number;
	busiestSecond: number;
	sendsPerS: number;
	requestsPerS: number;
	serverCpuMs: number;
	workers: Record<string, GroupPeak>;
	maxWorkerPeakMb: number;
	pg: Growth & { beforeBytes: number; afterBytes: number };
	executionStatus: Record<string, number>;
	records: {
		rows: number;
		byStatus: Record<string, number>;
		sent: number;
		maybeSent: number;
		notSent: number;
	};
	kill?: KillOutcome;
}

const tally = (values: string[]) =>
	values.reduce<Record<string, number>>(
		(all, value) => ({ ...all, [value]: (all[value] ?? 0) + 1 }),
		{},
	);

/** Waits until the run's trigger execution ended and nothing is new or running (bounded). */
async function settle(
	db: Psql,
	triggerWorkflowId: string,
	after: number,
	deadline: number,
	deadBefore?: number,
): Promise<void> {
	while (Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		const rows = executions(db);
		const started = rows.filter(
			(row) => row.workflowId === triggerWorkflowId && (row.startedAt ?? after) >= after - 1000,
		);
		const triggerDone = started.some((row) => !['new', 'running', 'waiting'].includes(row.status));
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
			sent: sum('sent'),
			maybeSent: sum('maybeSent'),
			notSent: sum('notSent'),
		},
	};
}

/** The service may be sent a number without its "+": numbers are compared by their digits. */
const digits = (phone: string) => phone.replace(/\D/g, '');

const parseList = (value: unknown): string[] => {
	try {
		const list = JSON.parse(String(value ?? '[]')) as unknown;
		return Array.isArray(list) ? list.map(String) : [];
	} catch {
		return [];
	}
};

export async function runCase(spec: CaseSpec, count: number, shared: Shared): Promise<CaseRun> {
	const { server, recipients, log } = shared;
	const loadBefore = loadavg()[0];
	log(
		`${spec.label}: starting a cluster (${spec.workers} worker(s)), load ${loadBefore.toFixed(2)}`,
	);
	const setup: CaseCluster = await startCaseCluster(
		{ tarball: shared.tarball, workers: spec.workers, quickStallCheck: spec.kill },
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
			perProcessRps: Math.floor((LIMIT_PER_SECOND * LIMIT_SHARE) / spec.workers),
			credential: spec.sender === 'node' ? setup.nodeCredential : setup.basicAuth,
			chatUrl: server.chatUrl,
			contactsUrl: server.contactsUrl,
			channel: server.channel,
		};
		let triggerId: string;
		let triggerPath: string;
		if (spec.shape === 'campaign') {
			await publish(setup, batchWorkflow(settings), BATCH_PATH);
			triggerId = await publish(setup, campaignWorkflow(), CAMPAIGN_PATH);
			triggerPath = CAMPAIGN_PATH;
		} else {
			triggerId = await publish(setup, oneExecutionWorkflow(settings), ONE_EXECUTION_PATH);
			triggerPath = ONE_EXECUTION_PATH;
		}
		const before = sizes(db);
		await server.reset({
			latencyMs: LATENCY_MS,
			limiter: { model: 'sliding', perSecond: LIMIT_PER_SECOND },
		});
		for (const worker of cluster.workers) sampler.add(worker.name, worker.pid);
		sampler.start();
		const body = {
			campaign: 'bench',
			recipientsUrl: recipients.urlFor(count),
			batchUrl: `${cluster.mainUrl}/webhook/${BATCH_PATH}`,
		};
		const startCampaign = async () => {
			const answer = await fetch(`${cluster.mainUrl}/webhook/${triggerPath}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			if (!answer.ok)
				throw new Error(`POST ${triggerPath}: HTTP ${answer.status} ${await answer.text()}`);
		};
		const idealS = count / LIMIT_PER_SECOND;
		const postedAt = Date.now();
		await startCampaign();
		log(`${spec.label}: ${count} recipients posted, ideal ${idealS} s`);
		const deadline = postedAt + Math.max(300_000, 4 * idealS * 1000);

		let killedAt: number | undefined;
		let sentAtKill = 0;
		if (spec.kill) {
			const victim = cluster.workers[0];
			while (Date.now() < deadline) {
				sentAtKill = (await server.progress()).sends;
				if (sentAtKill >= count * KILL_AT_SHARE) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			killedAt = Date.now();
			killGroup(victim.pid);
			log(
				`${spec.label}: SIGKILLed ${victim.name}'s process group after ${sentAtKill} sends; starting a replacement`,
			);
			const replacement = await cluster.addWorker('worker-3');
			sampler.add(replacement.name, replacement.pid);
		}
		await settle(db, triggerId, postedAt, deadline, killedAt);
		const stoppedAt = Math.max(...executions(db).map((row) => row.stoppedAt ?? 0));
		let stats: ReplyStats = await server.stats();
		const problems: string[] = [];
		let kill: KillOutcome | undefined;
		if (spec.kill) {
			const sentBeforeRerun = stats.distinct;
			const executionsBeforeRerun = tally(executions(db).map((row) => row.status));
			log(`${spec.label}: settled with ${sentBeforeRerun} sent; running the campaign again`);
			const rerunAt = Date.now();
			const batchesBefore = executions(db).length;
			await startCampaign();
			await settle(
				db,
				triggerId,
				rerunAt,
				rerunAt + Math.max(300_000, 4 * idealS * 1000),
				killedAt,
			);
			stats = await server.stats();
			const records = readRecords(db, setup.dataTableId);
			const maybe = new Set<string>();
			let sendingRows = 0;
			for (const row of records.all) {
				if (row.status === 'done')
					for (const phone of parseList(row.maybeSentTo)) maybe.add(digits(phone));
				else {
					sendingRows += 1;
					for (const phone of parseList(row.recipients)) maybe.add(digits(phone));
				}
			}
			const texted = new Set(Object.keys(stats.counts).map(digits));
			const never = recipients.phones(count).filter((phone) => !texted.has(digits(phone)));
			const outside = never.filter((phone) => !maybe.has(digits(phone))).length;
			kill = {
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
				pass: stats.doubles === 0 && outside === 0 && sendingRows <= 1 && maybe.size <= BATCH_SIZE,
			};
			if (!kill.pass) problems.push(`kill and rerun: ${JSON.stringify(kill)}`);
		}
		const workers = sampler.stop();
		const after = sizes(db);
		const grown = growth(before, after);
		const records = readRecords(db, setup.dataTableId).summary;
		const status = tally(executions(db).map((row) => row.status));
		const wallS = (stoppedAt - postedAt) / 1000;
		const sendSpanS =
			stats.receivedAt.length > 1
				? (Math.max(...stats.receivedAt) - Math.min(...stats.receivedAt)) / 1000
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
			sendSpanS,
			distinct: stats.distinct,
			notSent,
			doubled: stats.doubles,
			requests: stats.requests,
			refused429: stats.refused429,
			busiestSecond: busiestWindow(stats.receivedAt),
			sendsPerS: stats.sends / wallS,
			requestsPerS: stats.requests / wallS,
			serverCpuMs: stats.cpuMs,
			workers,
			maxWorkerPeakMb: Math.max(...Object.values(workers).map((peak) => peak.peakMb)),
			pg: { ...grown, beforeBytes: before.databaseBytes, afterBytes: after.databaseBytes },
			executionStatus: status,
			records,
			kill,
		};
	} catch (error) {
		sampler.stop();
		const logs = setup.cluster.logs();
		throw new Error(`${spec.label}: ${String(error)}\n${logs.slice(-4000)}`);
	} finally {
		setup.cluster.stop();
	}
}
