/**
 * `npm run bench -- reports`: delivery reports counted per campaign in queue mode (docs/deliveries.md).
 * A campaign's record of BENCH_REPORTS messages (100,000) is written into smsleopard_campaigns and
 * smsleopard_deliveries as its batches write it; then WhatsApp statuses for every message are posted
 * to the activated trigger workflow (examples/opt-outs-from-replies.json) at up to
 * BENCH_REPORTS_PER_SECOND (500), some repeated, some out of order, ten for unknown messages; then a
 * check (checkOnly) counts them. Measured: every message at its highest status (0 lost), one row per
 * message (0 twice), the time to drain the queue, the main's and each worker's peak memory (process
 * group: n8n and its task runner) during the reports and during the check, and what the database
 * grew by per 1,000 reports. Bounded: posts at most BENCH_REPORTS × 1.6, BENCH_REPORTS_WAIT_S
 * (3600) for the queue to drain. BENCH_WORKERS (2), BENCH_WORKER_CONCURRENCY (2, as the campaign
 * asks workers to run). BENCH_REPORTS_GATHER_MS: the trigger's Gather Posts (as shipped: 250; 0 for
 * one execution per post). BENCH_WORKER_ENV: the workers' settings instead of docs/campaigns.md's,
 * as in the campaign bench.
 */
import { parse } from 'flatted';

import { N8nRest, packPackage, removePackedTarball } from '../test/e2e/harness';
import {
	CAMPAIGN_FILE,
	publishCampaign,
	createCampaignFormLogin,
	createCampaignKey,
	createCampaignTable,
	postJson,
	startListServer,
	webhookPath,
} from '../test/queue/campaign/campaign-kit';
import {
	DELIVERIES_TABLE,
	DELIVERY_COLUMNS,
	activateReplyWorkflow,
	whatsappStatusBody,
} from '../test/queue/campaign/delivery-reports';
import {
	CAMPAIGN_MAIN_ENV,
	CAMPAIGN_WORKER_CONCURRENCY,
	CAMPAIGN_WORKER_ENV,
} from '../test/queue/cluster/campaign-workers';
import { startQueueCluster } from '../test/queue/cluster/queue-cluster';
import { GroupRssSampler } from './campaign/group-rss';
import { type Psql, growth, psql, sizes } from './campaign/postgres';
import { goal, num, printSection } from './report';
import { envOverride } from './run-options';

const MESSAGES = Number(process.env.BENCH_REPORTS ?? 100_000);
const PER_SECOND = Number(process.env.BENCH_REPORTS_PER_SECOND ?? 500);
const WAIT_S = Number(process.env.BENCH_REPORTS_WAIT_S ?? 3600);
/** The trigger's Gather Posts (ms); unset: as the shipped workflow has it (250). */
const GATHER_MS = process.env.BENCH_REPORTS_GATHER_MS;
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
/**
 * BENCH_REPORTS_CHECK_ONLY=1: no report posted; the record is written as the reports would leave it
 * (each message at its final status, straight into Postgres), then the check: its time and memory
 * at this size in minutes instead of the reports' half hour.
 */
const CHECK_ONLY = process.env.BENCH_REPORTS_CHECK_ONLY === '1';
const CONCURRENCY = Number(process.env.BENCH_WORKER_CONCURRENCY ?? CAMPAIGN_WORKER_CONCURRENCY);
const SECRET = 'bench-reports-webhook-secret-0123';
const CAMPAIGN = 'bench-reports';
const BATCH = 1000;
const UNKNOWN = 10;
const phoneOf = (index: number) => `+2547${String(10_000_000 + index)}`;
const idOf = (index: number) => `wamid.bench.${index}`;

/** The status each message ends at, and the posts that take it there (some twice, some late). */
function plan(index: number): { final: string; posts: Array<{ status: string; reason?: string }> } {
	if (index % 10 === 9)
		return { final: 'failed', posts: [{ status: 'failed', reason: 'Message undeliverable' }] };
	if (index % 3 === 0)
		// Read before delivered: the late delivered must change nothing.
		return { final: 'read', posts: [{ status: 'read' }, { status: 'delivered' }] };
	if (index % 7 === 0)
		return { final: 'delivered', posts: [{ status: 'delivered' }, { status: 'delivered' }] };
	if (index % 11 === 0) return { final: 'pending', posts: [{ status: 'sent' }] };
	return { final: 'delivered', posts: [{ status: 'delivered' }] };
}

const statusBody = (id: string, status: string, reason?: string) =>
	whatsappStatusBody([{ id, status, reason }]);

/** Posts at up to PER_SECOND, at most 64 in flight; the answers' statuses counted. */
async function postAll(url: string, bodies: string[]): Promise<Map<number, number>> {
	const answers = new Map<number, number>();
	let next = 0;
	const started = Date.now();
	const worker = async () => {
		while (next < bodies.length) {
			const index = next++;
			const due = started + (index * 1000) / PER_SECOND;
			if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
			let status = 0;
			try {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'x-status-secret': SECRET },
					body: bodies[index],
				});
				status = response.status;
				await response.arrayBuffer();
			} catch {
				status = -1;
			}
			answers.set(status, (answers.get(status) ?? 0) + 1);
		}
	};
	await Promise.all(Array.from({ length: 64 }, worker));
	return answers;
}

const tableName = (id: string) => `data_table_user_${id.replace(/[^A-Za-z0-9_]/g, '')}`;

function statusCounts(db: Psql, table: string): Record<string, number> {
	return Object.fromEntries(
		db
			.rows(
				`SELECT status, count(*) FROM "${table}" WHERE campaign = '${CAMPAIGN}' GROUP BY status;`,
			)
			.map(([status, count]) => [status, Number(count)]),
	);
}

/** The workers' settings: docs/campaigns.md's, or BENCH_WORKER_ENV instead (as in the campaign bench). */
const workerEnv = (): Record<string, string> =>
	envOverride('BENCH_WORKER_ENV') ?? { ...CAMPAIGN_WORKER_ENV };

/** Every message at the status plan() ends it at, and the unknown messages' rows, in SQL. */
function writeFinalStatuses(db: Psql, table: string): void {
	const n = `(regexp_replace("messageId", '^wamid\\.bench\\.', ''))::int`;
	const final = `CASE WHEN ${n} % 10 = 9 THEN 'failed' WHEN ${n} % 3 = 0 THEN 'read' WHEN ${n} % 7 = 0 THEN 'delivered' WHEN ${n} % 11 = 0 THEN 'pending' ELSE 'delivered' END`;
	db.rows(
		`UPDATE "${table}" SET status = ${final}, rank = CASE ${final} WHEN 'read' THEN 3 WHEN 'pending' THEN 1 ELSE 2 END, reason = CASE WHEN ${n} % 10 = 9 THEN 'Message undeliverable' ELSE NULL END, "reportedAt" = '2026-11-30T10:00:00.000Z' WHERE campaign = '${CAMPAIGN}';`,
	);
	for (let index = 0; index < UNKNOWN; index++)
		db.rows(
			`INSERT INTO "${table}" ("messageId", channel, status, rank, "reportedAt") VALUES ('wamid.unknown.${index}', 'whatsapp', 'delivered', 2, '2026-11-30T10:00:00.000Z');`,
		);
}

/** The node and message of the latest failed execution (n8n keeps failed ones, flatted). */
function lastExecutionError(db: Psql): string {
	const [row] = db.rows(
		`SELECT ed.data FROM execution_data ed JOIN execution_entity ee ON ee.id = ed."executionId" WHERE ee.status IN ('error', 'crashed') ORDER BY ee.id DESC LIMIT 1;`,
	);
	if (!row) return 'none recorded';
	try {
		const data = parse(row[0]) as {
			resultData?: {
				lastNodeExecuted?: string;
				error?: { message?: string; description?: string };
			};
		};
		const { lastNodeExecuted, error } = data.resultData ?? {};
		return `at ${lastNodeExecuted ?? '?'}: ${error?.message ?? '?'} ${error?.description ?? ''}`.slice(
			0,
			800,
		);
	} catch (parseError) {
		return `unreadable (${String(parseError).slice(0, 100)})`;
	}
}

export async function run(): Promise<void> {
	const tarball = packPackage();
	const cluster = await startQueueCluster({
		packageTarball: tarball,
		workers: WORKERS,
		workerConcurrency: CONCURRENCY,
		// The settings docs/campaigns.md gives the cluster that sends the campaign and takes its reports.
		mainEnv: { ...CAMPAIGN_MAIN_ENV },
		workerEnv: workerEnv(),
	});
	const lists = await startListServer();
	try {
		const rest = await N8nRest.owner(cluster.mainUrl);
		const projectId = await rest.personalProjectId();
		const credential = await rest.createCredential('SMSLeopard account', 'smsLeopardApi', {
			apiKey: 'bench-key',
			apiSecret: 'bench-secret-0123456789',
			webhookSecret: SECRET,
		});
		const owner = {
			key: await createCampaignKey(rest),
			formLogin: await createCampaignFormLogin(rest),
			settings: { callerMaySetListLink: true },
		};
		const campaignTable = await createCampaignTable(rest);
		const deliveries = await rest.call<{ id: string }>(
			'POST',
			`/rest/projects/${projectId}/data-tables`,
			{
				name: DELIVERIES_TABLE,
				columns: DELIVERY_COLUMNS,
			},
		);
		// The record as the campaign's batches write it: a done row per batch, a row per message.
		for (let from = 0; from < MESSAGES; from += BATCH) {
			const indexes = Array.from({ length: Math.min(BATCH, MESSAGES - from) }, (_, i) => from + i);
			const batch = `bench-${from / BATCH + 1}`;
			await campaignTable.insert({
				campaign: CAMPAIGN,
				batch,
				status: 'done',
				recipients: indexes.map(phoneOf).join(','),
				sent: indexes.map((index) => `${phoneOf(index)}:${idOf(index)}`).join(','),
				sentCount: indexes.length,
				maybeSentCount: 0,
				notSentCount: 0,
				cost: 0,
			});
			await rest.call('POST', `/rest/projects/${projectId}/data-tables/${deliveries.id}/insert`, {
				data: indexes.map((index) => ({
					messageId: idOf(index),
					campaign: CAMPAIGN,
					batch,
					phone: phoneOf(index),
					channel: 'whatsapp',
					status: 'accepted',
					rank: 0,
					reason: '',
					reportedAt: '',
					fallback: '',
				})),
				returnType: 'count',
			});
		}
		lists.put(
			CAMPAIGN,
			Array.from({ length: MESSAGES }, (_, index) => ({
				phone: phoneOf(index),
				name: `P ${index}`,
			})),
		);
		await publishCampaign(rest, credential, undefined, owner);
		const url = await activateReplyWorkflow(
			rest,
			credential,
			cluster.mainUrl,
			GATHER_MS === undefined ? undefined : Number(GATHER_MS),
		);

		const plans = Array.from({ length: MESSAGES }, (_, index) => plan(index));
		// Posts in message order, each message's own posts in its order (read before delivered).
		const bodies = CHECK_ONLY
			? []
			: plans.flatMap((entry, index) =>
					entry.posts.map((post) => statusBody(idOf(index), post.status, post.reason)),
				);
		for (let index = 0; index < (CHECK_ONLY ? 0 : UNKNOWN); index++)
			bodies.push(statusBody(`wamid.unknown.${index}`, 'delivered'));
		const expected: Record<string, number> = {};
		for (const entry of plans) expected[entry.final] = (expected[entry.final] ?? 0) + 1;

		const db = psql(cluster.postgres.port);
		const table = tableName(deliveries.id);
		if (CHECK_ONLY) writeFinalStatuses(db, table);
		const before = sizes(db);
		const sampler = new GroupRssSampler();
		sampler.add('main', cluster.main.pid);
		cluster.workers.forEach((worker) => sampler.add(worker.name, worker.pid));
		sampler.start();
		const postStarted = Date.now();
		const answers = await postAll(url, bodies);
		const postSeconds = (Date.now() - postStarted) / 1000;
		// Drained: every message at its final status, or the bound.
		const settled = () => {
			const counts = statusCounts(db, table);
			return Object.entries(expected).every(([status, count]) => counts[status] === count);
		};
		const deadline = postStarted + WAIT_S * 1000;
		while (Date.now() < deadline && !settled())
			await new Promise((resolve) => setTimeout(resolve, 2000));
		const drainSeconds = (Date.now() - postStarted) / 1000;
		const reportPeaks = sampler.stop();
		const after = sizes(db);

		const counts = statusCounts(db, table);
		const [[rows, distinct]] = db.rows(
			`SELECT count(*), count(DISTINCT "messageId") FROM "${table}" WHERE campaign = '${CAMPAIGN}';`,
		);
		const [[unknownRows]] = db.rows(
			`SELECT count(DISTINCT "messageId") FROM "${table}" WHERE campaign IS NULL OR campaign = '';`,
		);
		const lost = Object.entries(expected).reduce(
			(sum, [status, count]) => sum + Math.max(0, count - (counts[status] ?? 0)),
			0,
		);
		const twice = Number(rows) - Number(distinct);

		const checkSampler = new GroupRssSampler();
		checkSampler.add('main', cluster.main.pid);
		cluster.workers.forEach((worker) => checkSampler.add(worker.name, worker.pid));
		checkSampler.start();
		const checkStarted = Date.now();
		const check = await postJson(
			`${cluster.mainUrl}/webhook/${webhookPath(CAMPAIGN_FILE, 'Campaign Webhook')}`,
			{
				campaign: CAMPAIGN,
				recipientsUrl: lists.url(CAMPAIGN),
				checkOnly: true,
			},
		);
		const checkSeconds = (Date.now() - checkStarted) / 1000;
		const checkPeaks = checkSampler.stop();

		const grew = growth(before, after);
		const per1000 = (bytes: number) => ((bytes / bodies.length) * 1000) / 1024;
		const expectedDelivered = (expected.delivered ?? 0) + (expected.read ?? 0);
		const checkRight =
			check.status === 200 &&
			check.body.accepted === MESSAGES &&
			check.body.delivered === expectedDelivered &&
			check.body.failed === (expected.failed ?? 0) &&
			check.body.pending === (expected.pending ?? 0) + (expected.accepted ?? 0);
		// What a failed check's execution says, from n8n's own record of it.
		const checkError = checkRight ? '' : lastExecutionError(db);
		const names = ['main', ...cluster.workers.map((worker) => worker.name)];
		printSection({
			title: `Delivery reports: ${MESSAGES} messages, ${bodies.length} posts at up to ${PER_SECOND}/s, queue mode`,
			notes: [
				`${WORKERS} workers at --concurrency=${CONCURRENCY}; main ${JSON.stringify(CAMPAIGN_MAIN_ENV)}, workers ${JSON.stringify(workerEnv())} (${process.env.BENCH_WORKER_ENV ? 'BENCH_WORKER_ENV' : "docs/campaigns.md's"}); Gather Posts ${GATHER_MS ?? '250 (as shipped)'} ms; posts answered: ${JSON.stringify(Object.fromEntries(answers))}`,
				`posted in ${num(postSeconds, 1)} s; every message at its final status after ${num(drainSeconds, 1)} s`,
				`check (checkOnly): HTTP ${check.status} in ${num(checkSeconds, 1)} s: ${String(check.body.message ?? '')}${checkError ? `; the failed execution: ${checkError}` : ''}`,
			],
			columns: ['process', 'peak MB (reports)', 'peak MB (check)'],
			rows: names.map((name) => [
				name,
				num(reportPeaks[name]?.peakMb ?? NaN),
				num(checkPeaks[name]?.peakMb ?? NaN),
			]),
			goals: [
				goal('0 lost (every message at its highest status)', String(lost), lost === 0),
				goal('0 counted twice (one row per message)', String(twice), twice === 0),
				goal(
					`${UNKNOWN} unknown messages kept`,
					String(unknownRows),
					Number(unknownRows) === UNKNOWN,
				),
				goal(
					'the check counts what was posted',
					checkRight ? 'yes' : JSON.stringify(check.body).slice(0, 300),
					checkRight,
				),
				goal(
					'database growth per 1,000 reports (KB: all, data tables, executions)',
					`${num(per1000(grew.databaseBytes))}, ${num(per1000(grew.dataTables))}, ${num(per1000(grew.executionData + grew.executionOther))}`,
					true,
				),
			],
			data: {
				expected,
				counts,
				answers: Object.fromEntries(answers),
				postSeconds,
				drainSeconds,
				checkSeconds,
				grew,
				reportPeaks,
				checkPeaks,
			},
		});
	} finally {
		cluster.stop();
		await lists.stop();
		removePackedTarball(tarball);
	}
}
