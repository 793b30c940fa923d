/**
 * The bench's own workflow: every recipient in ONE execution (Webhook -> the list as one item ->
 * Split Out -> this node on one worker), the way the shipped campaign (examples/campaign-*.json,
 * shipped.ts) replaces, and what the bench's variants share.
 */
import type { WorkflowJson } from '../../test/e2e/harness';
import { type WorkflowNode, node } from '../../test/e2e/workflows/build';

/** The shipped Campaign Settings' batchSize. */
const SHIPPED_BATCH_SIZE = 1000;
/** BENCH_BATCH_SIZE: another batch size (an experiment; the results' conditions name it). */
export const BATCH_SIZE_CHOSEN = Number(process.env.BENCH_BATCH_SIZE) || undefined;
/** Recipients per batch in the bench's campaigns. */
export const BATCH_SIZE = BATCH_SIZE_CHOSEN ?? SHIPPED_BATCH_SIZE;
export const ONE_EXECUTION_PATH = 'bench-one-execution';
/** SMS recipients per request: the node's default, and what the HTTP Request variant groups. */
export const SMS_PER_REQUEST = 100;

export type Kind = 'template' | 'sms';
export type Sender = 'node' | 'http';
type Credential = { id: string; name: string };

export interface SenderSettings {
	kind: Kind;
	sender: Sender;
	/**
	 * Max Requests per Second of the batch: this node shares it with the batches sending at once
	 * (the shipped Batches Sharing the Limit); the HTTP Request twin, which cannot, paces
	 * `accountRps / workers` on each worker.
	 */
	accountRps: number;
	/** Workers of the case (the HTTP Request twin's fixed share). */
	workers: number;
	/** Items in Parallel instead of the shipped batch's (BENCH_ITEMS_IN_PARALLEL). */
	itemsInParallel?: number;
	/** The batch keeps its successful executions (as shipped it keeps none). */
	keepSuccessful?: boolean;
	/** This node's credential (the reply server's hosts), or the HTTP Request node's Basic Auth. */
	credential: Credential;
	/** The campaign key (Header Auth) on the batch webhook: the shipped campaign only. */
	campaignKey?: Credential;
	/** The reply server's hosts, for the HTTP Request node's URLs. */
	chatUrl: string;
	contactsUrl: string;
	channel: string;
}

function webhook(path: string): WorkflowNode {
	return node(
		'Webhook',
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{ webhookId: `bench-${path}` },
	);
}

const fetchRecipients = (): WorkflowNode =>
	node('Fetch Recipients', 'n8n-nodes-base.httpRequest', 4.2, {
		url: "={{ $('Webhook').first().json.body.recipientsUrl }}",
		options: {},
	});

function chain(name: string, nodes: WorkflowNode[], settings: Record<string, unknown> = {}) {
	const connections: WorkflowJson['connections'] = {};
	nodes.forEach((entry, index) => {
		entry.position = [index * 240, 0];
		const next = nodes[index + 1];
		if (next) connections[entry.name] = { main: [[{ node: next.name, type: 'main', index: 0 }]] };
	});
	return { name, nodes, connections, settings: { executionOrder: 'v1', ...settings } };
}

/**
 * Every recipient into one node on one worker, the way the campaign replaces. `send` is the shipped
 * batch's send node (shipped.ts), so both send the same message with the same Request Options.
 */
export function oneExecutionWorkflow(kind: Kind, send: Record<string, unknown>): WorkflowJson {
	const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'recipients',
		options: {},
	});
	return chain(`bench: one execution (${kind})`, [
		webhook(ONE_EXECUTION_PATH),
		fetchRecipients(),
		split,
		send as unknown as WorkflowNode,
	]);
}
