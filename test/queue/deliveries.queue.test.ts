/**
 * Deliveries counted per campaign in queue mode (Postgres, a main and two workers): the shipped
 * campaign sends a WhatsApp template to 20 people; the sandbox posts each message's "sent" status
 * to the activated trigger workflow (examples/opt-outs-from-replies.json) at the moment it is sent,
 * before the batch has written its rows; the test then posts the rest as SMSLeopard would, some
 * repeated, some out of order (read before delivered), several in one post, and one for a message
 * no campaign sent. A check must then count every message once at its highest status.
 */
import { N8nRest, packedTarball, removeOwnTarball } from '../e2e/harness';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	BATCH_FILE,
	CAMPAIGN_FILE,
	campaignWorkflow,
	createCampaignFormLogin,
	createCampaignKey,
	findCampaignTable,
	findDataTable,
	listOf,
	postJson,
	startListServer,
	webhookPath,
} from './campaign/campaign-kit';
import {
	DELIVERIES_TABLE,
	type WhatsAppStatus,
	activateReplyWorkflow,
	whatsappStatusBody,
} from './campaign/delivery-reports';
import { itShowingLogs } from './cluster/show-logs-on-failure';
import { type QueueCluster, startQueueCluster } from './cluster/queue-cluster';

const SECRET = 'deliveries-webhook-secret-queue-7c41';
let tarball: string;
let sandbox: Sandbox;
let cluster: QueueCluster;
const it = itShowingLogs(() => cluster);
let rest: N8nRest;
let lists: Awaited<ReturnType<typeof startListServer>>;
let triggerUrl: string;

beforeAll(async () => {
	tarball = packedTarball();
	// "sent" at once; "delivered" after 10 minutes, long after this test: the test posts the rest.
	sandbox = await startSandbox({ smsDeliveryMs: 600_000 });
	lists = await startListServer();
	cluster = await startQueueCluster({ packageTarball: tarball, workerConcurrency: 1 });
	rest = await N8nRest.owner(cluster.mainUrl);
	const credential = await rest.createCredential('SMSLeopard account', 'smsLeopardApi', {
		...sandbox.credentialData,
		webhookSecret: SECRET,
	});
	const key = await createCampaignKey(rest);
	const formLogin = await createCampaignFormLogin(rest);
	const owner = { key, formLogin, settings: { callerMaySetListLink: true } };
	await rest.activateWorkflow(
		campaignWorkflow(BATCH_FILE, credential, { requestsPerSecond: 20 }, undefined, owner),
	);
	await rest.activateWorkflow(campaignWorkflow(CAMPAIGN_FILE, credential, {}, undefined, owner));
	triggerUrl = await activateReplyWorkflow(rest, credential, cluster.mainUrl);
	sandbox.setOptions({ whatsappWebhookUrl: triggerUrl, whatsappWebhookSecret: SECRET });
}, 600_000);

afterAll(async () => {
	cluster?.stop();
	await sandbox?.stop();
	await lists?.stop();
	removeOwnTarball(tarball);
});

/** WhatsApp statuses in one post, as SMSLeopard forwards them. */
const postStatuses = (statuses: WhatsAppStatus[]) =>
	fetch(triggerUrl, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-status-secret': SECRET },
		body: whatsappStatusBody(statuses),
	});

type DeliveryRow = { messageId: string; campaign: string | null; status: string };
async function deliveryRows(): Promise<DeliveryRow[]> {
	const { projectId, id } = await findDataTable(rest, DELIVERIES_TABLE);
	if (id === undefined) return [];
	return (
		await rest.call<{ data: DeliveryRow[] }>(
			'GET',
			`/rest/projects/${projectId}/data-tables/${id}/rows?take=1000`,
		)
	).data;
}

it('a campaign of 20, its reports repeated, out of order, before its record and for an unknown message: the check counts each message once', async () => {
	const people = Array.from({ length: 20 }, (_, index) => ({
		phone: `+2547130${String(index).padStart(5, '0')}`,
		name: `Customer ${index}`,
	}));
	lists.put('counted', people);
	const campaignUrl = `${cluster.mainUrl}/webhook/${webhookPath(CAMPAIGN_FILE, 'Campaign Webhook')}`;
	const start = (extra: Record<string, unknown> = {}) =>
		postJson(campaignUrl, { campaign: 'counted', recipientsUrl: lists.url('counted'), ...extra });
	expect((await start()).status).toBe(202);

	// The batch recorded done, with the message ids SMSLeopard gave.
	const deadline = Date.now() + 180_000;
	let ids: string[] = [];
	while (Date.now() < deadline && ids.length < 20) {
		const rows = ((await (await findCampaignTable(rest))?.rows('counted')) ?? []).filter(
			(row) => row.batch !== 'claim' && row.status === 'done',
		);
		ids = rows.flatMap((row) => listOf(row.sent).map((entry) => entry.split(':')[1]));
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	expect(ids.length).toBe(20);

	// 0-4 read (read posted before delivered), 5-9 delivered (each posted twice), 10-12 failed not
	// on WhatsApp, 13-14 failed for another reason, 15-19 only the sandbox's "sent".
	const posts: WhatsAppStatus[][] = [
		ids.slice(0, 3).map((id) => ({ id, status: 'read' })),
		ids.slice(0, 5).map((id) => ({ id, status: 'delivered' })),
		ids.slice(3, 5).map((id) => ({ id, status: 'read' })),
		...ids.slice(5, 10).map((id) => [{ id, status: 'delivered' }]),
		...ids.slice(5, 10).map((id) => [{ id, status: 'delivered' }]),
		ids.slice(10, 13).map((id) => ({ id, status: 'failed', reason: 'Not on WhatsApp' })),
		ids.slice(13, 15).map((id) => ({ id, status: 'failed', reason: 'Message expired' })),
		// A late "sent" lowers nothing; a "delivered" after failed changes nothing.
		[
			{ id: ids[0], status: 'sent' },
			{ id: ids[10], status: 'delivered' },
		],
		[{ id: 'wamid.not-from-this-campaign', status: 'delivered' }],
	];
	for (const post of posts) expect((await postStatuses(post)).status).toBe(200);

	const settle = Date.now() + 120_000;
	let rows = await deliveryRows();
	const finished = () =>
		rows.filter((row) => row.campaign === 'counted' && ['read', 'failed'].includes(row.status))
			.length === 10 && rows.some((row) => !row.campaign);
	while (Date.now() < settle && !finished()) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		rows = await deliveryRows();
	}
	await new Promise((resolve) => setTimeout(resolve, 3000));
	rows = await deliveryRows();
	// One row per message of the campaign; the unknown one kept without a campaign.
	expect(
		rows
			.filter((row) => row.campaign === 'counted')
			.map((row) => row.messageId)
			.sort(),
	).toEqual([...ids].sort());
	expect(rows.filter((row) => !row.campaign).map((row) => row.messageId)).toEqual([
		'wamid.not-from-this-campaign',
	]);

	const check = await start({ checkOnly: true });
	expect(check.status).toBe(200);
	expect(check.body).toMatchObject({
		state: 'checked',
		sent: 20,
		accepted: 20,
		delivered: 10,
		read: 5,
		failed: 5,
		pending: 5,
		sentNotTracked: 0,
		unknownReports: 1,
		failedReasons: [
			{ reason: expect.stringContaining('Not on WhatsApp'), count: 3 },
			{ reason: expect.stringContaining('Message expired'), count: 2 },
		],
	});
	expect(String(check.body.message)).toContain('20 accepted, 10 delivered (5 read), 5 failed');
	expect(String(check.body.formSubmittedText)).toContain('5 pending');
}, 420_000);
