/**
 * The shipped campaign (examples/campaign-100000-recipients.json posting batches to
 * examples/campaign-batch-whatsapp-template.json) on n8n 2.8.4 (QUEUE_N8N=<version>: another; on
 * 1.x the Data table nodes get the table picked from the list, as the README says) in queue mode:
 * Postgres, Redis, a main and two workers each running two jobs at a time (`--concurrency=2`, what
 * docs/campaigns.md asks for: one batch sends while the next waits its turn beside it). The recipient list comes from a URL as one CSV, the record is n8n's data
 * table, and every claim is checked on the sandbox's log of what it really sent:
 * - batches spread over both workers, each recipient sent once, and a rerun sends nothing;
 * - a worker SIGKILLed mid-batch: every recipient sent at most once, all but its batches (two at
 *   most) sent exactly once, and the rerun lists them as maybe sent and sends none of them;
 * - a 429 storm (not sent) and server errors (maybe sent): the rerun sends exactly the not sent.
 * Batches of 1,000, the example's own size: the kill then costs at most the batches the docs
 * promise, and 5,000 recipients make five batches, enough for both workers and a queue behind them.
 */
import { readFileSync } from 'fs';

import { N8nRest, packedTarball, removeOwnTarball } from '../e2e/harness';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	BATCH_FILE,
	CAMPAIGN_FILE,
	type CampaignSettings,
	type CampaignTable,
	SMS_BATCH_FILE,
	campaignWorkflow,
	publishCampaign,
	onOwnPaths,
	createCampaignFormLogin,
	createCampaignKey,
	failedRunMessages,
	createCampaignTable,
	executionBytes,
	listOf,
	postJson,
	startListServer,
	tableBytes,
	webhookPath,
} from './campaign/campaign-kit';
import { campaignOptOutCases } from './campaign/opt-out-cases';
import { optOutList } from './campaign/opt-out-list';
import { campaignSafetyCases } from './campaign/safety-cases';
import { code, node, webhook, workflow } from '../e2e/workflows/build';
import { CAMPAIGN_SHARED_ENV, CAMPAIGN_WORKER_CONCURRENCY } from './cluster/campaign-workers';
import { killGroup } from './cluster/services';
import { itShowingLogs } from './cluster/show-logs-on-failure';
import { QUEUE_N8N_VERSION, type QueueCluster, startQueueCluster } from './cluster/queue-cluster';

const SMS_CAMPAIGN_PATH = 'smsleopard-campaign-sms-test';
/**
 * The test's account limit: the batch workflow's Max Requests per Second (the example: 495), shared
 * by the batches sending at once (Batches Sharing the Limit), so two workers send 50 a second each:
 * low enough that the share, not the machine, sets each worker's pace (at 150, two loaded workers
 * sent 90 a second together, so a worker alone sped up whatever its share).
 */
const ACCOUNT_PER_SECOND = 100;

let tarball: string;
let sandbox: Sandbox;
let cluster: QueueCluster;
// Each test, when it fails, shows the end of n8n's logs.
const it = itShowingLogs(() => cluster);
let rest: N8nRest;
let table: CampaignTable;
let lists: Awaited<ReturnType<typeof startListServer>>;
let batchWorkflowId: string;
let campaignWorkflowId: string;
const suiteStarted = Date.now();

beforeAll(async () => {
	tarball = packedTarball();
	// 50 ms a send, so a batch of 1,000 takes seconds and a kill lands inside one.
	sandbox = await startSandbox({ latencyMs: 50 });
	lists = await startListServer();
	cluster = await startQueueCluster({
		packageTarball: tarball,
		workerConcurrency: CAMPAIGN_WORKER_CONCURRENCY,
		// The campaign set-up's settings for the main and the workers (no execution read back whole:
		// the webhook's and the form's answers, and the executions kept on error, come without it).
		// A killed worker's job is noticed in seconds instead of a minute (defaults 60 s / 30 s).
		env: {
			...CAMPAIGN_SHARED_ENV,
			QUEUE_WORKER_LOCK_DURATION: '5000',
			QUEUE_WORKER_LOCK_RENEW_TIME: '1000',
			QUEUE_WORKER_STALLED_INTERVAL: '5000',
		},
	});
	rest = await N8nRest.owner(cluster.mainUrl);
	const credential = await rest.createCredential('SMSLeopard account', 'smsLeopardApi', {
		...sandbox.credentialData,
	});
	const key = await createCampaignKey(rest);
	const formLogin = await createCampaignFormLogin(rest);
	// Made here so its size can be read before the first run (n8n 1.x: by hand, as its note says);
	// the campaign's Create Record Table If Missing then finds it.
	table = await createCampaignTable(rest);
	// n8n 1.x picks the opt-out list from the list too: made here as the opt-out workflow would.
	const optOutId = QUEUE_N8N_VERSION.startsWith('1.') ? (await optOutList(rest)).id : undefined;
	const picked = { id: table.id, n8nVersion: QUEUE_N8N_VERSION, optOutId };
	// The owner lets the test's caller post the list's link (callerMaySetListLink).
	const owner = (settings: CampaignSettings = {}) => ({
		key,
		formLogin,
		settings: { callerMaySetListLink: true, ...settings },
	});
	batchWorkflowId = await rest.activateWorkflow(
		campaignWorkflow(
			BATCH_FILE,
			credential,
			{ requestsPerSecond: ACCOUNT_PER_SECOND },
			picked,
			owner(),
		),
	);
	await rest.activateWorkflow(
		campaignWorkflow(SMS_BATCH_FILE, credential, { requestsPerSecond: 20 }, picked, owner()),
	);
	const published = await publishCampaign(rest, credential, picked, owner());
	campaignWorkflowId = published.campaignId;
	// The same campaign set to SMS by its one setting, on a webhook and a form path of its own,
	// with the same plan workflow.
	await publishCampaign(
		rest,
		credential,
		picked,
		{ ...owner({ channel: 'sms' }), plan: published.planId },
		(sms) => onOwnPaths(sms, 'SMS', SMS_CAMPAIGN_PATH),
	);
	console.log(`campaign suite: cluster up in ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s`);
}, 600_000);

afterAll(async () => {
	cluster?.stop();
	await sandbox?.stop();
	await lists?.stop();
	removeOwnTarball(tarball);
	console.log(`campaign suite: ${((Date.now() - suiteStarted) / 1000).toFixed(1)} s in all`);
});

beforeEach(() => sandbox.reset());

const people = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, index) => ({
		phone: `${prefix}${String(index).padStart(5, '0')}`,
		name: `Customer ${index}`,
	}));

/** What a check (checkOnly) answers: where the campaign stands, in plain keys. */
interface Summary {
	campaign: string;
	state: 'checked' | 'started' | 'claimed';
	message: string;
	sent: number;
	maybeSent: number;
	notSent: number;
	stillQueued: number;
	costSoFar: number;
	queuedNow: number;
	recipients: number | null;
	toSend: number | null;
	checkOnly: boolean;
	unfinishedBatches: Array<{ batch: string; recipients: number; sendingSince: string }>;
	maybeSentTo: Array<{ phone: string; batch: string; reason?: string }>;
}

const campaignUrl = (path = webhookPath(CAMPAIGN_FILE, 'Campaign Webhook')) =>
	`${cluster.mainUrl}/webhook/${path}`;

/** Starts the campaign on its webhook as a scheduler or a script would: the answer, at once. */
async function startCampaign(
	campaign: string,
	listName: string,
	extra: Record<string, unknown> = {},
	path?: string,
) {
	return await postJson(campaignUrl(path), {
		campaign,
		recipientsUrl: lists.url(listName),
		...extra,
	});
}

/** Waits until no run holds the campaign's claim: the run that planned it has queued its batches. */
async function planned(campaign: string, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const claims = (await table.rows(campaign)).filter((row) => row.batch === 'claim');
		if (claims.length > 0 && claims.every((row) => row.status === 'free')) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(
		`campaign ${campaign} was not planned: ${JSON.stringify(await table.rows(campaign))}`,
	);
}

/** Starts the campaign (accepted at once: 202) and waits until its batches are queued. */
async function runCampaign(
	campaign: string,
	listName: string,
	extra: Record<string, unknown> = {},
	path?: string,
): Promise<void> {
	const answer = await startCampaign(campaign, listName, extra, path);
	if (answer.status !== 202)
		throw new Error(`campaign webhook: ${answer.status} ${JSON.stringify(answer.body)}`);
	expect(answer.body).toMatchObject({ accepted: true, campaign });
	await planned(campaign);
}

/** Where the campaign stands (checkOnly): nothing sent, nothing written. */
async function check(campaign: string, listName: string, path?: string): Promise<Summary> {
	const answer = await startCampaign(campaign, listName, { checkOnly: true }, path);
	if (answer.status !== 200)
		throw new Error(`campaign check: ${answer.status} ${JSON.stringify(answer.body)}`);
	return answer.body as unknown as Summary;
}

/** A number as digits only: the list, the record and the sandbox may write it differently. */
const digits = (phone: string) => phone.replace(/\D/g, '');
const sentTo = () => sandbox.state.sentMessages.map((message) => digits(message.destination));

function counts(values: string[]): Map<string, number> {
	const result = new Map<string, number>();
	for (const value of values) result.set(value, (result.get(value) ?? 0) + 1);
	return result;
}

const twice = () => [...counts(sentTo())].filter(([, count]) => count > 1).map(([phone]) => phone);

/**
 * Waits until no row of the campaign is queued, at most `unfinished` rows are still sending, and the
 * sandbox took no send for 2 s: the batches are done (successful ones leave no execution to poll).
 */
async function settled(campaign: string, unfinished = 0, timeoutMs = 120_000) {
	const deadline = Date.now() + timeoutMs;
	let quietSince = Date.now();
	let lastCount = -1;
	while (Date.now() < deadline) {
		const count = sandbox.state.sentMessages.length;
		if (count !== lastCount) [lastCount, quietSince] = [count, Date.now()];
		// The claim row (batch "claim") says who plans the campaign, not who was sent.
		const rows = (await table.rows(campaign)).filter((row) => row.batch !== 'claim');
		const open = rows.filter((row) => row.status !== 'done');
		if (
			rows.length > 0 &&
			open.every((row) => row.status.startsWith('sending')) &&
			open.length <= unfinished &&
			Date.now() - quietSince >= 2000
		)
			return rows;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(
		`campaign ${campaign} did not settle: ${JSON.stringify(await table.rows(campaign))}`,
	);
}

/** Which executions each worker started and finished ("Worker started/finished execution N"). */
function workerJobs() {
	return cluster.workers.map((worker) => {
		const log = readFileSync(worker.log, 'utf8');
		const started = [...log.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);
		const finished = new Set(
			[...log.matchAll(/Worker finished execution (\d+)/g)].map((m) => m[1]),
		);
		return { worker, started, running: started.filter((id) => !finished.has(id)) };
	});
}

it('5,000 recipients in batches of 1,000 over both workers: each sent once, the record says so, and a rerun sends nothing', async () => {
	const list = people(5000, '+2547400');
	const phones = list.map((person) => digits(person.phone));
	lists.put('clean', list);
	const bytesBefore = tableBytes(cluster.postgres.port, table.id);
	const jobsBefore = workerJobs().map((entry) => entry.started.length);
	const started = Date.now();

	await runCampaign('clean', 'clean');
	const rows = await settled('clean');
	const seconds = (Date.now() - started) / 1000;

	expect(sandbox.state.sentMessages).toHaveLength(5000);
	expect(twice()).toEqual([]);
	expect(new Set(sentTo())).toEqual(new Set(phones));
	expect(rows).toHaveLength(5);
	expect(rows.every((row) => row.status === 'done' && row.sentCount === 1000)).toBe(true);
	// The record pairs each recipient with the message ID SMSLeopard gave: the sandbox's own ids.
	const recorded = new Map(
		rows
			.flatMap((row) => listOf(row.sent))
			.map((entry) => [digits(entry.split(':')[0]), entry.split(':')[1]] as const),
	);
	expect(recorded.size).toBe(5000);
	for (const message of sandbox.state.sentMessages) {
		expect(recorded.get(digits(message.destination))).toBe(message.id);
	}
	// Both workers took batches (one job at a time each: the parent's and the five batches).
	const perWorker = workerJobs().map((entry, index) => entry.started.length - jobsBefore[index]);
	expect(perWorker.every((count) => count > 0)).toBe(true);
	// Successful batches leave no stored execution: the table is the record.
	const stored = await rest.executionCount(batchWorkflowId);
	const grown = tableBytes(cluster.postgres.port, table.id) - bytesBefore;
	// What n8n counts toward its data table limit (N8N_DATA_TABLES_MAX_SIZE_BYTES, 50 MB by
	// default): the table's main relation only, without its TOAST (long texts) and indexes.
	const counted = tableBytes(cluster.postgres.port, table.id, 'counted');
	console.log(
		`campaign of 5,000 over 2 workers: ${seconds.toFixed(1)} s (${ACCOUNT_PER_SECOND}/s shared, ` +
			`ideal ${(5000 / ACCOUNT_PER_SECOND).toFixed(1)} s), jobs per worker ${perWorker.join(' + ')}, ` +
			`data table grew ${grown} bytes (${(grown / 5 / 1024).toFixed(1)} KB per 1,000 recipients; ` +
			`n8n's size check counts ${counted} bytes of the table), ` +
			`${stored} batch executions stored (${executionBytes(cluster.postgres.port, batchWorkflowId)} bytes), ` +
			`the campaign's own execution ${executionBytes(cluster.postgres.port, campaignWorkflowId)} bytes`,
	);
	expect(stored).toBe(0);
	expect(grown / 5).toBeLessThanOrEqual(45 * 1024);
	// Nor does the campaign's own run from its webhook (12 MB at 100,000): failed ones are kept.
	expect(await rest.executionCount(campaignWorkflowId)).toBe(0);

	sandbox.reset();
	await runCampaign('clean', 'clean');
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(sandbox.state.sentMessages).toHaveLength(0);
	expect(await check('clean', 'clean')).toMatchObject({
		state: 'checked',
		recipients: 5000,
		sent: 5000,
		maybeSent: 0,
		notSent: 0,
		stillQueued: 0,
		toSend: 0,
	});
	expect(await table.rows('clean')).toHaveLength(6);
});

it('the account limit sets the pace: when a worker is killed, the other takes up its share', async () => {
	// 14,000 recipients at 100 a second: 140 s. Worker shares: 50 each while both send.
	const list = people(14000, '+2547450');
	lists.put('pace', list);
	const sendsBetween = (from: number, to: number) =>
		sandbox.state.sentMessages.filter((message) => message.at >= from && message.at < to).length;
	const waitUntil = async (at: number) => {
		while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 100));
	};
	await runCampaign('pace', 'pace');
	// Both workers sending for a while, past the opening (the first batches count the batches
	// sending before every worker took one, and their worker keeps that share until its next batch
	// starts, 20 s later), then one killed mid-batch.
	const deadline = Date.now() + 120_000;
	while (sandbox.state.sentMessages.length < 4000 && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	const busy = workerJobs().filter((entry) => entry.running.length > 0);
	expect(busy.length).toBe(2);
	const victim = busy[0].worker;
	const killedAt = Date.now();
	killGroup(victim.pid);
	// The killed batches count as sending until 1.5 x their 1,000 sends at 100 / 4 a second + 3 s
	// (63 s) after they were taken, so at most 63 s after the kill; the survivor's next batch joins
	// its process within a batch's sends at half (20 s) and sets the worker's rate to the whole
	// limit: by 83 s after the kill, whatever the timing.
	await waitUntil(killedAt + 95_000);
	const before = sendsBetween(killedAt - 10_000, killedAt) / 10;
	const after = sendsBetween(killedAt + 85_000, killedAt + 95_000) / 10;
	console.log(
		`worker ${victim.name} killed: ${before.toFixed(0)} sends a second from both workers in the 10 s ` +
			`before, ${after.toFixed(0)} from the other 85-95 s after (fixed shares: half)`,
	);
	// Never over the limit: each worker sends at its share whichever of its two batches sends (the
	// shares of a worker's batches added up, each counting the batches sending when it started,
	// sent 147 a second).
	expect(before).toBeLessThanOrEqual(1.05 * ACCOUNT_PER_SECOND);
	// Rates against rates, not wall time: the survivor alone sends what both sent.
	expect(after).toBeGreaterThanOrEqual(0.8 * before);
	await settled('pace', CAMPAIGN_WORKER_CONCURRENCY, 120_000);
	expect(twice()).toEqual([]);
	// The rest of the suite runs on two workers again.
	cluster.workers.splice(cluster.workers.indexOf(victim), 1, await cluster.addWorker('worker-3'));
});

it('a worker SIGKILLed mid-batch: nobody sent twice, all but its batches (two at most) sent once, the rerun lists them as maybe sent without sending them, and once checked the rest of them is sent', async () => {
	const list = people(5000, '+2547410');
	lists.put('killed', list);
	const campaign = runCampaign('killed', 'killed');

	// Kill the worker of a batch well under way (the sandbox has taken 800 sends).
	const deadline = Date.now() + 60_000;
	while (sandbox.state.sentMessages.length < 800 && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	await campaign;
	expect((await table.rows('killed')).filter((row) => row.batch !== 'claim')).toHaveLength(5);
	const busy = workerJobs().filter((entry) => entry.running.length > 0);
	expect(busy.length).toBeGreaterThan(0);
	const victim = busy[0].worker;
	killGroup(victim.pid);
	const sentAtKill = sandbox.state.sentMessages.length;

	const rows = await settled('killed', CAMPAIGN_WORKER_CONCURRENCY);
	const unfinished = rows.filter((row) => row.status.startsWith('sending'));
	expect(unfinished.length).toBeLessThanOrEqual(CAMPAIGN_WORKER_CONCURRENCY);
	const lostBatch = new Set(unfinished.flatMap((row) => listOf(row.recipients).map(digits)));
	const afterFirst = counts(sentTo());
	const sentOfLost = [...lostBatch].filter((phone) => afterFirst.has(phone)).length;
	console.log(
		`worker ${victim.name} killed after ${sentAtKill} sends; the other finished the rest: ` +
			`${sandbox.state.sentMessages.length} sends, batch left sending: ${unfinished.map((row) => row.batch).join(', ') || 'none'} ` +
			`(${sentOfLost} of its ${lostBatch.size} sent before the kill)`,
	);
	expect(twice()).toEqual([]);
	for (const person of list) {
		const phone = digits(person.phone);
		if (!lostBatch.has(phone)) expect(afterFirst.get(phone)).toBe(1);
	}

	const before = sandbox.state.sentMessages.length;
	await runCampaign('killed', 'killed');
	await settled('killed', CAMPAIGN_WORKER_CONCURRENCY);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	const rerun = await check('killed', 'killed');
	console.log(
		`rerun after the kill: ${JSON.stringify({ ...rerun, maybeSentTo: rerun.maybeSentTo.length })}, ` +
			`${sandbox.state.sentMessages.length - before} sends`,
	);
	expect(sandbox.state.sentMessages.length).toBe(before);
	expect(twice()).toEqual([]);
	expect(rerun.maybeSent).toBe(lostBatch.size);
	expect(new Set(rerun.maybeSentTo.map((entry) => digits(entry.phone)))).toEqual(lostBatch);
	expect(rerun.sent).toBe(5000 - lostBatch.size);
	expect(rerun.toSend).toBe(0);
	expect(rerun.unfinishedBatches.map((entry) => entry.batch).sort()).toEqual(
		unfinished.map((row) => row.batch).sort(),
	);

	// What the batch workflow's note says to do: look the batch up in SMSLeopard's message log (here
	// the sandbox's), write who got it in `sent` and who did not in `notSent`, mark it done, rerun.
	if (unfinished.length === 0) return;
	const didNot: string[] = [];
	for (const batch of unfinished) {
		const gotIt = listOf(batch.recipients).filter((phone) => afterFirst.has(digits(phone)));
		const notIt = listOf(batch.recipients).filter((phone) => !afterFirst.has(digits(phone)));
		didNot.push(...notIt);
		await table.update('killed', batch.batch, {
			status: 'done',
			sent: gotIt.join(','),
			notSent: notIt.join(','),
		});
	}
	const beforeLast = sandbox.state.sentMessages.length;
	expect(await check('killed', 'killed')).toMatchObject({ maybeSent: 0, toSend: didNot.length });
	await runCampaign('killed', 'killed');
	await settled('killed');
	expect(sentTo().slice(beforeLast).sort()).toEqual(didNot.map(digits).sort());
	expect(twice()).toEqual([]);
	expect(new Set(sentTo())).toEqual(new Set(list.map((person) => digits(person.phone))));
});

it('a 429 storm (not sent) and server errors (maybe sent): the rerun sends exactly the not sent and lists the maybe sent', async () => {
	const list = people(2000, '+2547420');
	lists.put('storm', list);
	// 429s asking to wait an hour (beyond Max Wait on Rate Limit: not sent, at once), then 1 send
	// in 100 answered 500 (it may have gone out: maybe sent).
	// Started once sends flow, so the batches' template listings are not what meets them.
	const first = runCampaign('storm', 'storm');
	while (sandbox.state.sentMessages.length < 300) await new Promise((r) => setTimeout(r, 20));
	sandbox.setOptions({ burst429: 40, burst429RetryAfter: '3600', failureRate: 0.01 });
	await first;
	const rows = await settled('storm');
	sandbox.setOptions({ burst429: 0, failureRate: 0 });
	const notSent = rows.flatMap((row) => listOf(row.notSent).map(digits));
	const maybeSent = rows.flatMap((row) => listOf(row.maybeSent).map(digits));
	const sentFirst = new Set(sentTo());
	console.log(
		`storm: ${sentFirst.size} sent, ${maybeSent.length} maybe sent, ${notSent.length} not sent; ` +
			`${sandbox.requests.filter((request) => request.status === 429).length} x 429`,
	);
	expect(notSent.length).toBeGreaterThan(0);
	expect(maybeSent.length).toBeGreaterThan(0);
	expect(sentFirst.size + maybeSent.length + notSent.length).toBe(2000);
	for (const phone of notSent) expect(sentFirst.has(phone)).toBe(false);

	// Check Only: where the campaign stands (the not sent still to send), nothing sent or written.
	const rowsBefore = JSON.stringify(await table.rows('storm'));
	const sentBeforeCheck = sandbox.state.sentMessages.length;
	const standing = await check('storm', 'storm');
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(standing).toMatchObject({
		checkOnly: true,
		maybeSent: maybeSent.length,
		notSent: notSent.length,
		toSend: notSent.length,
		queuedNow: 0,
	});
	expect(standing.costSoFar).toBeGreaterThan(0);
	expect(sandbox.state.sentMessages.length).toBe(sentBeforeCheck);
	expect(JSON.stringify(await table.rows('storm'))).toBe(rowsBefore);

	const before = sandbox.state.sentMessages.length;
	await runCampaign('storm', 'storm');
	await settled('storm');
	const rerun = await check('storm', 'storm');
	const sentByRerun = sentTo().slice(before);
	expect([...sentByRerun].sort()).toEqual([...notSent].sort());
	expect(twice()).toEqual([]);
	expect(rerun).toMatchObject({ maybeSent: maybeSent.length, notSent: 0, toSend: 0 });
	expect(new Set(rerun.maybeSentTo.map((entry) => digits(entry.phone)))).toEqual(
		new Set(maybeSent),
	);
	expect(twice()).toEqual([]);
});

it('a batch recorded but never posted (the campaign stopped, the main was down) is posted again by the rerun, and a batch posted twice is sent once', async () => {
	const list = people(1000, '+2547440');
	lists.put('lost', list);
	const lost = list.slice(0, 400);
	// What a campaign leaves when it stops between recording a batch and posting it.
	await table.insert({
		campaign: 'lost',
		batch: 'lost-1',
		status: 'queued',
		recipients: lost.map((person) => person.phone).join(','),
	});
	expect(await check('lost', 'lost')).toMatchObject({
		stillQueued: 400,
		toSend: 600,
		maybeSent: 0,
	});
	await runCampaign('lost', 'lost');
	// The rerun's own post of the waiting batch sends it: nothing else posts it.
	const afterRerun = await settled('lost', 0, 60_000);
	expect(afterRerun.find((row) => row.batch === 'lost-1')).toMatchObject({
		status: 'done',
		sentCount: 400,
	});
	expect(new Set(sentTo())).toEqual(new Set(list.map((person) => digits(person.phone))));
	// A queued batch posted twice at once, as an HTTP retry or an overlapping rerun would.
	const batchUrl = `${cluster.mainUrl}/webhook/${webhookPath(BATCH_FILE, 'Batch Webhook')}`;
	const late = people(300, '+2547441');
	await table.insert({
		campaign: 'lost',
		batch: 'lost-3',
		status: 'queued',
		recipients: late.map((person) => person.phone).join(','),
	});
	const again = JSON.stringify({ campaign: 'lost', batch: 'lost-3', recipients: late });
	const posts = await Promise.all([1, 2].map(() => postJson(batchUrl, JSON.parse(again))));
	expect(posts.map((post) => post.status)).toEqual([200, 200]);
	// A post naming numbers its batch did not record sends only to the recorded ones.
	await table.insert({
		campaign: 'lost',
		batch: 'lost-2',
		status: 'queued',
		recipients: '+254744099999',
	});
	const stranger = { phone: '+254744088888', name: 'Not in the batch' };
	await postJson(batchUrl, {
		campaign: 'lost',
		batch: 'lost-2',
		recipients: [{ phone: '+254744099999', name: 'Recorded' }, stranger],
	});
	const rows = await settled('lost');
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(twice()).toEqual([]);
	expect(new Set(sentTo())).toEqual(
		new Set([...list, ...late].map((person) => digits(person.phone)).concat('254744099999')),
	);
	expect(rows.find((row) => row.batch === 'lost-3')).toMatchObject({
		status: 'done',
		sentCount: 300,
	});
});

it('the SMS batch workflow: 2,000 recipients, each sent once with their name, recorded with message IDs; a rerun sends nothing', async () => {
	const list = people(2000, '+2547430');
	lists.put('sms', list);
	await runCampaign('sms', 'sms', {}, SMS_CAMPAIGN_PATH);
	const rows = await settled('sms');
	const sent = sandbox.state.smsMessages.map((message) => digits(message.number));
	expect(sent.sort()).toEqual(list.map((person) => digits(person.phone)).sort());
	expect(sandbox.state.smsMessages[0].message).toMatch(/^Hi Customer \d+, our spring sale/);
	const recorded = new Set(
		rows.flatMap((row) => listOf(row.sent)).map((entry) => entry.split(':')[1]),
	);
	expect(recorded).toEqual(new Set(sandbox.state.smsMessages.map((message) => message.id)));

	await runCampaign('sms', 'sms', {}, SMS_CAMPAIGN_PATH);
	await new Promise((resolve) => setTimeout(resolve, 2000));
	expect(sandbox.state.smsMessages).toHaveLength(2000);
	expect(await check('sms', 'sms', SMS_CAMPAIGN_PATH)).toMatchObject({ sent: 2000, toSend: 0 });
});

const underTest = {
	campaignUrl: () => campaignUrl(),
	batchUrl: () => `${cluster.mainUrl}/webhook/${webhookPath(BATCH_FILE, 'Batch Webhook')}`,
	putList: (name: string, rows: Array<{ phone: string; name: string }>, delayMs?: number) =>
		lists.put(name, rows, delayMs),
	listUrl: (name: string) => lists.url(name),
	listReads: (name: string) => lists.reads(name),
	sent: () => sandbox.state.sentMessages.map((message) => message.destination),
	// Each worker runs one job at a time: starts posted together wait their turn.
	startsRunAtOnce: false,
	table: async () => table,
	optOuts: () => optOutList(rest),
	batchFailures: () => failedRunMessages(rest, batchWorkflowId),
};
// Overlapping starts, a client that retries, a stranger, a forged or repeated batch: in queue mode,
// as test/e2e/campaign.e2e.test.ts runs them in regular mode.
campaignSafetyCases(it, underTest);
// Opted-out numbers skipped by every run and by a batch that starts after the opt-out is recorded.
campaignOptOutCases(it, underTest);

/**
 * Why the campaign fans out by webhook: n8n's Execute Workflow node runs its sub-workflow inside the
 * process that runs the parent (n8n's `executeWorkflow` in workflow-execute-additional-data starts
 * a `WorkflowExecute` in place; nothing is enqueued), even without waiting for it. So sub-workflows
 * cannot spread batches over workers; posting to a webhook makes each batch a job of the queue.
 */
it('Execute Workflow runs its sub-workflows in the parent’s worker, never as jobs of the queue', async () => {
	// n8n 2 calls a sub-workflow's published version; n8n 1 calls it as saved and cannot activate a
	// workflow whose only trigger is Execute Workflow Trigger.
	const save = QUEUE_N8N_VERSION.startsWith('1.') ? 'saveWorkflow' : 'activateWorkflow';
	const sub = await rest[save](
		workflow('sub-workflow probe', [
			[
				node('Called', 'n8n-nodes-base.executeWorkflowTrigger', 1.1, {
					inputSource: 'passthrough',
				}),
				code('Echo', '$input.all()'),
			],
		]),
	);
	const parent = await rest.activateWorkflow(
		workflow('sub-workflow parent', [
			[
				webhook('subworkflow-probe', 'lastNode'),
				code('Four Batches', '[1, 2, 3, 4].map((batch) => ({ json: { batch } }))'),
				node('Run Batch', 'n8n-nodes-base.executeWorkflow', 1.2, {
					source: 'database',
					workflowId: { __rl: true, mode: 'id', value: sub },
					mode: 'each',
					options: { waitForSubWorkflow: false },
				}),
			],
		]),
	);
	const url = `${cluster.mainUrl}/webhook/subworkflow-probe`;
	for (let attempt = 0; attempt < 60; attempt++) {
		if ((await fetch(url, { method: 'POST' })).status !== 404) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	const [parentRun] = await rest.settledExecutions(parent, 1);
	const subRuns = await rest.settledExecutions(sub, 4);
	const jobs = workerJobs();
	const enqueued = [
		...readFileSync(cluster.main.log, 'utf8').matchAll(/Enqueued execution (\d+)/g),
	];
	const ranParent = jobs.filter((entry) => entry.started.includes(parentRun.id));
	const subIds = subRuns.map((entry) => entry.id);
	console.log(
		`Execute Workflow in queue mode: parent execution ${parentRun.id} a job of ${ranParent.map((entry) => entry.worker.name).join(', ')}; ` +
			`${subRuns.length} sub-executions (${subIds.join(', ')}, mode ${subRuns[0]?.mode}), ` +
			`${jobs.filter((entry) => entry.started.some((id) => subIds.includes(id))).length} of them a worker's job, ` +
			`${enqueued.filter((match) => subIds.includes(match[1])).length} enqueued by the main`,
	);
	expect(ranParent).toHaveLength(1);
	expect(subRuns).toHaveLength(4);
	for (const entry of jobs) expect(entry.started.filter((id) => subIds.includes(id))).toEqual([]);
	expect(enqueued.filter((match) => subIds.includes(match[1]))).toEqual([]);
});
