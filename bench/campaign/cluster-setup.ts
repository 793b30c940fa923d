/**
 * A fresh queue-mode cluster for one measured case, set up as a user would: credentials stored,
 * the campaign's data table created, the workflows published, their production webhooks answering.
 * Fresh per case, so a worker's peak memory and the database's growth are that case's alone.
 */
import { N8nRest, type WorkflowJson } from '../../test/e2e/harness';
import { CAMPAIGN_WORKER_CONCURRENCY } from '../../test/queue/cluster/campaign-workers';
import { type QueueCluster, startQueueCluster } from '../../test/queue/cluster/queue-cluster';
import type { ReplyServer } from '../reply-server';
import {
	createCampaignFormLogin,
	createCampaignKey,
	createCampaignTable,
} from '../../test/queue/campaign/campaign-kit';

export interface CaseCluster {
	cluster: QueueCluster;
	rest: N8nRest;
	/** This node's credential pointing at the reply server, and the HTTP Request node's. */
	nodeCredential: { id: string; name: string };
	basicAuth: { id: string; name: string };
	/** The Header Auth credential "SMSLeopard campaign key" the campaign's webhooks ask for. */
	campaignKey: { id: string; name: string };
	/** The Basic Auth credential of the campaign's form. */
	formLogin: { id: string; name: string };
	dataTableId: string;
}

export interface ClusterChoice {
	tarball: string;
	workers: number;
	/** Shorter stalled-job checks: a killed worker's execution is noticed in seconds. */
	quickStallCheck?: boolean;
	/** Added to the workers' environment (BENCH_WORKER_ENV: a deployment setting under test). */
	workerEnv?: Record<string, string>;
	/** Added to the main's environment (BENCH_MAIN_ENV). */
	mainEnv?: Record<string, string>;
}

export async function startCaseCluster(
	choice: ClusterChoice,
	server: ReplyServer,
	credentialData: Record<string, string>,
	apiKey: { user: string; password: string },
): Promise<CaseCluster> {
	const cluster = await startQueueCluster({
		packageTarball: choice.tarball,
		workers: choice.workers,
		// The campaign's design: one execution (one batch) at a time per worker.
		workerConcurrency: CAMPAIGN_WORKER_CONCURRENCY,
		workerEnv: choice.workerEnv,
		mainEnv: choice.mainEnv,
		env: {
			...(choice.quickStallCheck
				? {
						QUEUE_WORKER_LOCK_DURATION: '5000',
						QUEUE_WORKER_LOCK_RENEW_TIME: '1000',
						QUEUE_WORKER_STALLED_INTERVAL: '5000',
					}
				: {}),
		},
	});
	try {
		const rest = await N8nRest.owner(cluster.mainUrl);
		const nodeCredential = await rest.createCredential('SMSLeopard bench', 'smsLeopardApi', {
			...credentialData,
			chatUrl: server.chatUrl,
			contactsUrl: server.contactsUrl,
		});
		const basicAuth = await rest.createCredential(
			'SMSLeopard bench (basic)',
			'httpBasicAuth',
			apiKey,
		);
		// The Header Auth key both campaign webhooks ask for, and the campaign sends with each batch.
		const campaignKey = await createCampaignKey(rest);
		const formLogin = await createCampaignFormLogin(rest);
		// Made before the run so the bench reads its size from the start; the campaign then finds it.
		const table = await createCampaignTable(rest);
		return {
			cluster,
			rest,
			nodeCredential,
			basicAuth,
			campaignKey,
			formLogin,
			dataTableId: table.id,
		};
	} catch (error) {
		cluster.stop();
		throw error;
	}
}

/** Publishes a workflow and waits (bounded) until its POST webhook answers on the main. */
export async function publish(
	setup: CaseCluster,
	workflow: WorkflowJson,
	webhookPath: string,
): Promise<string> {
	const id = await setup.rest.activateWorkflow(workflow);
	const url = `${setup.cluster.mainUrl}/webhook/${webhookPath}`;
	for (let attempt = 0; attempt < 60; attempt++) {
		// A GET starts nothing; once the POST webhook is registered, n8n says to use POST.
		const answer = await fetch(url).then((response) => response.text());
		if (answer.includes('Did you mean to make a POST')) return id;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`the webhook ${webhookPath} was not registered within 15 s`);
}
