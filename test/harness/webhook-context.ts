/**
 * A trigger's webhook() in n8n-core's real WebhookContext: real getNodeParameter (defaults filled
 * in by `new Workflow()`), real getCredentials through the harness's credentials helper, the
 * request and response objects as n8n hands them over. What the webhook answered (status and
 * body) and what n8n would start (workflowData) come back, with every warn line n8n's logger got.
 */
import { EventEmitter } from 'events';
import { WebhookContext } from 'n8n-core';
import {
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IDataObject,
	type INodeParameters,
	type INodeType,
	type IWebhookData,
	type IWebhookResponseData,
	Workflow,
} from 'n8n-workflow';
import { buildAdditionalData, buildNode, noteContextCreated } from './index';
import { HarnessCredentialsHelper } from './credentials-helper';
import { HarnessCredentialTypes, HarnessNodeTypes } from './registries';
import { recordForSecretScan } from '../secret-scan/record';
import type { N8nWebhookRequest } from './n8n-webhook-request';

export interface WebhookCall {
	nodeType: INodeType;
	parameters: INodeParameters;
	typeVersion?: number;
	credentialTypes?: ICredentialType[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The request as n8n's body parser leaves it: parsed body, lower-case headers, query. */
	request: {
		body?: unknown;
		headers?: Record<string, string>;
		query?: Record<string, unknown>;
		rawBody?: Buffer;
	};
	/** Instead of `request`: the request object as n8n leaves it (n8n-webhook-request.ts). */
	n8nRequest?: N8nWebhookRequest;
	webhookName?: 'default' | 'setup';
	/** The same id on every call keeps the trigger's repeat memory and log limit between calls. */
	workflowId?: string;
	workflowName?: string;
	/** The workflow's static data as n8n loads it from its database; changed in place. */
	staticData?: IDataObject;
	nodeName?: string;
	/**
	 * How n8n's answer to a post that returned workflow data goes (responseMode onReceived): sent
	 * 200 once the execution started (default), 500 when starting it failed, or never, the
	 * connection closing first.
	 */
	n8nAnswers?: 'started' | 'failed' | 'closed';
	/** 'manual': the editor's "Listen for test event"; 'webhook' (default): an activated workflow. */
	mode?: 'webhook' | 'manual';
}

export interface WebhookAnswer {
	/** Set when the webhook answered itself (a refusal, a subscription check). */
	status?: number;
	body?: unknown;
	result: IWebhookResponseData;
	/** The items n8n would start the workflow with (output 0). */
	items: Array<Record<string, unknown>>;
	/** Every line n8n's logger got at warn level during the call. */
	warnings: Array<{ message: string; meta: unknown }>;
}

export async function callWebhook(call: WebhookCall): Promise<WebhookAnswer> {
	const node = buildNode({
		nodeType: call.nodeType,
		parameters: call.parameters,
		credentials: call.credentials,
		typeVersion: call.typeVersion,
		nodeName: call.nodeName ?? 'SMSLeopard Trigger',
	});
	node.webhookId = 'harness-webhook';
	// Stable across calls of one workflow id, as a saved node's id is in n8n.
	node.id = `${call.workflowId ?? 'harness-trigger-workflow'}-node`;
	const workflow = new Workflow({
		id: call.workflowId ?? 'harness-trigger-workflow',
		name: call.workflowName,
		staticData: call.staticData,
		nodes: [node],
		connections: {},
		active: true,
		nodeTypes: new HarnessNodeTypes([call.nodeType]),
		settings: { executionOrder: 'v1' },
	});
	const answer: WebhookAnswer = { result: {}, items: [], warnings: [] };
	// Node's ServerResponse as far as a node uses it: express's status/json/send/end, and the
	// finish/close events with statusCode and writableFinished.
	const response = Object.assign(new EventEmitter(), {
		statusCode: 200,
		writableFinished: false,
		status(code: number) {
			answer.status = code;
			response.statusCode = code;
			return response;
		},
		json(body: unknown) {
			answer.body = body;
			return response.end();
		},
		send(body: unknown) {
			answer.body = body;
			return response.end();
		},
		end() {
			if (response.writableFinished) return response;
			response.writableFinished = true;
			response.emit('finish');
			response.emit('close');
			return response;
		},
	});
	const additionalData = buildAdditionalData(
		new HarnessCredentialsHelper(
			new HarnessCredentialTypes(call.credentialTypes ?? []),
			call.credentials ?? {},
		),
		undefined,
	);
	additionalData.httpRequest = (
		call.n8nRequest
			? Object.assign(call.n8nRequest, { params: {} })
			: {
					body: call.request.body ?? {},
					headers: call.request.headers ?? {},
					query: call.request.query ?? {},
					rawBody: call.request.rawBody,
					params: {},
				}
	) as never;
	additionalData.httpResponse = response as never;
	const filled = workflow.getNode(node.name) ?? node;
	const webhookData = {
		httpMethod: call.webhookName === 'setup' ? 'GET' : 'POST',
		node: filled.name,
		path: 'harness-webhook/smsleopard',
		webhookDescription: {
			name: call.webhookName ?? 'default',
			httpMethod: 'POST',
			path: 'smsleopard',
		},
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: 'harness-webhook',
	} as IWebhookData;
	noteContextCreated();
	const context = new WebhookContext(
		workflow,
		filled,
		additionalData,
		call.mode ?? 'webhook',
		webhookData,
		[],
		null,
	);
	const warn = jest.spyOn(context.logger, 'warn').mockImplementation((message, meta) => {
		answer.warnings.push({ message, meta });
	});
	try {
		answer.result = await (call.nodeType.webhook as NonNullable<INodeType['webhook']>).call(
			context,
		);
	} finally {
		warn.mockRestore();
	}
	if (answer.result.workflowData && !answer.result.noWebhookResponse) {
		// What n8n's webhook handler does next: start the execution, then answer (`status` stays
		// what the node itself answered).
		const answers = call.n8nAnswers ?? 'started';
		if (answers === 'closed') response.emit('close');
		else {
			response.statusCode = answers === 'started' ? 200 : 500;
			response.end();
		}
	}
	answer.items = (answer.result.workflowData?.[0] ?? []).map(
		(item) => item.json as Record<string, unknown>,
	);
	recordForSecretScan('trigger webhook', {
		items: answer.items,
		body: answer.body,
		warnings: answer.warnings,
	});
	return answer;
}
