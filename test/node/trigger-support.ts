/** The SMSLeopard Trigger in n8n-core's WebhookContext, version 2 with a credential or version 1. */
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { type WebhookAnswer, callWebhook } from '../harness/webhook-context';

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
	webhookName?: 'default' | 'setup';
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
		webhookName: options.webhookName,
	});
}
