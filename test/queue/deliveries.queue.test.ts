/**
 * Deliveries counted per campaign in queue mode (Postgres, a main and two workers): the scenario of
 * campaign/delivery-cases.ts (reports repeated, out of order, before the record, for an unknown
 * message; the check counts each message once), on the shipped campaign, batch and trigger files.
 */
import { N8nRest, packedTarball, removeOwnTarball } from '../e2e/harness';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	BATCH_FILE,
	CAMPAIGN_FILE,
	campaignWorkflow,
	publishCampaign,
	createCampaignFormLogin,
	createCampaignKey,
	startListServer,
	webhookPath,
} from './campaign/campaign-kit';
import { campaignDeliveryCases } from './campaign/delivery-cases';
import { activateReplyWorkflow } from './campaign/delivery-reports';
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
	sandbox = await startSandbox({});
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
	await publishCampaign(rest, credential, undefined, owner);
	triggerUrl = await activateReplyWorkflow(rest, credential, cluster.mainUrl);
}, 600_000);

afterAll(async () => {
	cluster?.stop();
	await sandbox?.stop();
	await lists?.stop();
	removeOwnTarball(tarball);
});

// The scenario runs in regular mode too (test/e2e/campaign.e2e.test.ts).
campaignDeliveryCases(it, {
	rest: () => rest,
	sandbox: () => sandbox,
	campaignUrl: () => `${cluster.mainUrl}/webhook/${webhookPath(CAMPAIGN_FILE, 'Campaign Webhook')}`,
	trigger: () => ({ url: triggerUrl, secret: SECRET }),
	putList: (name, rows) => lists.put(name, rows),
	listUrl: (name) => lists.url(name),
});
