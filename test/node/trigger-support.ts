/** The SMSLeopard Trigger in n8n-core's WebhookContext, version 2 with a credential or version 1. */
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { type WebhookAnswer, callWebhook } from '../harness/webhook-context';
import { N8nRefusal, type RawPost, n8nWebhookRequest } from '../harness/n8n-webhook-request';
import { type INode, type INodeParameters, Workflow } from 'n8n-workflow';
import { buildNode } from '../harness';
import { HarnessNodeTypes } from '../harness/registries';

export const WEBHOOK_SECRET = 'credential-webhook-secret-5c81';

const credentialData = (webhookSecret: string) => ({
	apiKey: 'sandbox-key',
	apiSecret: 'sandbox-secret-0123456789',
	chatUrl: 'http://127.0.0.1:1',
	contactsUrl: 'http://127.0.0.1:1',
	channel: 'whatsapp',
	webhookSecret,
});

export interface PostOptions {
	headers?: Record<string, string>;
	query?: Record<string, unknown>;
	parameters?: Record<string, unknown>;
	/** Version 2 (default): the credential's Webhook Secret; '' for a credential without one. */
	webhookSecret?: string;
	/** Version 1: the node's own Secret field. */
	v1Secret?: string;
	workflowId?: string;
	workflowName?: string;
	staticData?: Record<string, unknown>;
	webhookName?: 'default' | 'setup';
	/** How n8n's answer goes once the post returned workflow data (webhook-context.ts). */
	n8nAnswers?: 'started' | 'failed' | 'closed';
	mode?: 'webhook' | 'manual';
}

export async function post(body: unknown, options: PostOptions = {}): Promise<WebhookAnswer> {
	const v1 = options.v1Secret !== undefined;
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	return await callWebhook({
		nodeType: new SmsLeopardTrigger(),
		typeVersion: v1 ? 1 : 2,
		parameters: { ...(v1 ? { secret: options.v1Secret } : {}), ...options.parameters },
		credentialTypes: [new SmsLeopardApi()],
		credentials: v1
			? undefined
			: { smsLeopardApi: credentialData(options.webhookSecret ?? WEBHOOK_SECRET) },
		request: {
			body: typeof body === 'string' ? {} : body,
			headers: { 'content-type': 'application/json', ...options.headers },
			query: options.query,
			rawBody: Buffer.from(raw),
		},
		workflowId: options.workflowId ?? `wf-${Math.random().toString(36).slice(2)}`,
		workflowName: options.workflowName,
		staticData: options.staticData as never,
		webhookName: options.webhookName,
		n8nAnswers: options.n8nAnswers,
		mode: options.mode,
	});
}

/** What n8n answered a post and what the trigger started, in one comparable shape. */
export interface PostOutcome {
	status: number;
	/** Each started item's event, message id and status, in order. */
	read: Array<[unknown, unknown, unknown]>;
}

/**
 * A raw post through n8n's handling of a version's body (n8n-webhook-request.ts) into the trigger
 * of that version: version 1 with `secret` as its Secret, version 2 with it as the credential's.
 */
export async function postAsN8n(
	typeVersion: 1 | 2,
	raw: RawPost,
	secret: string,
	options: Pick<PostOptions, 'parameters' | 'workflowId'> = {},
): Promise<PostOutcome> {
	let n8nRequest;
	try {
		n8nRequest = n8nWebhookRequest(typeVersion, raw);
	} catch (error) {
		if (error instanceof N8nRefusal) return { status: error.status, read: [] };
		throw error;
	}
	const answer = await callWebhook({
		nodeType: new SmsLeopardTrigger(),
		typeVersion,
		parameters: { ...(typeVersion === 1 ? { secret } : {}), ...options.parameters },
		credentialTypes: [new SmsLeopardApi()],
		credentials: typeVersion === 1 ? undefined : { smsLeopardApi: credentialData(secret) },
		request: {},
		n8nRequest,
		workflowId: options.workflowId ?? `wf-${Math.random().toString(36).slice(2)}`,
	});
	return {
		status: answer.status ?? 200,
		read: answer.items.map((item) => [item.event, item.messageId, item.status]),
	};
}

/** The trigger in a one-node workflow, as n8n loads a saved one (`new Workflow()` fills defaults). */
export function triggerInWorkflow(
	typeVersion: number,
	parameters: Record<string, unknown>,
): { workflow: Workflow; node: INode } {
	const nodeType = new SmsLeopardTrigger();
	const saved = buildNode({
		nodeType,
		parameters: parameters as INodeParameters,
		typeVersion,
		nodeName: 'SMSLeopard Trigger',
	});
	const workflow = new Workflow({
		nodes: [saved],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes([nodeType]),
	});
	return { workflow, node: workflow.getNode(saved.name) as INode };
}
