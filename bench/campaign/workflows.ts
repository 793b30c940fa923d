/**
 * The campaign bench's workflows, built here so every variant shares one fan-out:
 *
 * - campaign: Webhook { campaign, recipientsUrl, batchUrl } -> the list as ONE item (HTTP Request)
 *   -> the campaign's records (Data Table) -> a Code node drops recorded recipients and cuts the
 *   rest into batches of BATCH_SIZE -> each batch POSTed to the batch workflow's production webhook.
 * - batch: Webhook (answers at once, so the main queues one execution per batch) -> write-ahead
 *   row "sending" with the batch's recipients -> one item per recipient -> the sender -> a summary
 *   -> the row updated with it ("done", sent, maybe sent, not sent, and who).
 * - one execution: Webhook -> the list -> Split Out -> the sender, every recipient in one node.
 *
 * The sender is this node (Request Options > Output "Summary and Problems Only", Max Requests per
 * Second its share of the limit) or n8n's HTTP Request node with its own batching (the alternative
 * at its best). A recipient whose row still says "sending" is maybe sent: the rerun skips it.
 */
import type { WorkflowJson } from '../../test/e2e/harness';
import { type WorkflowNode, code, locator, node, smsLeopard } from '../../test/e2e/workflows/build';
import { SMS_SENDER_ID } from '../../test/e2e/workflows/sms';
import { SENDER, TEMPLATE_ID } from '../workflows';

export const BATCH_SIZE = 1000;
export const RECORDS_TABLE = 'campaign records';
export const SEND = 'Send';
export const CAMPAIGN_PATH = 'bench-campaign';
export const BATCH_PATH = 'bench-campaign-batch';
export const ONE_EXECUTION_PATH = 'bench-one-execution';
/** SMS recipients per request: the node's default, and what the HTTP Request variant groups. */
export const SMS_PER_REQUEST = 100;
export const SMS_TEXT = 'Flash sale: 20% off today only. Reply STOP to opt out';

export type Kind = 'template' | 'sms';
export type Sender = 'node' | 'http';
type Credential = { id: string; name: string };

export interface SenderSettings {
	kind: Kind;
	sender: Sender;
	/** Requests per second for this n8n process (each worker paces its own). */
	perProcessRps: number;
	/** This node's credential (reply server hosts), or the HTTP Request node's Basic Auth. */
	credential: Credential;
	/** The reply server's hosts, for the HTTP Request node's URLs. */
	chatUrl: string;
	contactsUrl: string;
	channel: string;
}

/** The records' columns: one row per batch. */
export const RECORD_COLUMNS: Array<{ name: string; type: 'string' | 'number' }> = [
	{ name: 'campaign', type: 'string' },
	{ name: 'batch', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'recipients', type: 'string' },
	{ name: 'sent', type: 'number' },
	{ name: 'maybeSent', type: 'number' },
	{ name: 'notSent', type: 'number' },
	{ name: 'sentTo', type: 'string' },
	{ name: 'maybeSentTo', type: 'string' },
	{ name: 'notSentTo', type: 'string' },
];

const records = { __rl: true, mode: 'name', value: RECORDS_TABLE };

function columns(value: Record<string, unknown>): Record<string, unknown> {
	return {
		mappingMode: 'defineBelow',
		value,
		matchingColumns: [],
		schema: RECORD_COLUMNS.filter((column) => column.name in value).map((column) => ({
			id: column.name,
			displayName: column.name,
			required: false,
			defaultMatch: false,
			display: true,
			type: column.type,
			canBeUsedToMatch: true,
		})),
	};
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

/** The parent: fetch, skip what the records say went (or maybe went), post batches. */
export function campaignWorkflow(): WorkflowJson {
	const read = node(
		'Read Records',
		'n8n-nodes-base.dataTable',
		1,
		{
			resource: 'row',
			operation: 'get',
			dataTableId: records,
			matchType: 'allConditions',
			filters: {
				conditions: [
					{
						keyName: 'campaign',
						condition: 'eq',
						keyValue: "={{ $('Webhook').first().json.body.campaign }}",
					},
				],
			},
			returnAll: true,
		},
		// No rows yet (a first run) must still go on, with one empty item.
		{ alwaysOutputData: true, executeOnce: true },
	);
	const batches = code(
		'Batches',
		`(() => {
	const body = $('Webhook').first().json.body;
	const skip = new Set();
	for (const { json: row } of $('Read Records').all()) {
		if (!row.batch) continue;
		// "sending" without a summary: the batch may have gone out in part; none of it is sent again.
		const done = row.status === 'done'
			? [...JSON.parse(row.sentTo || '[]'), ...JSON.parse(row.maybeSentTo || '[]')]
			: JSON.parse(row.recipients || '[]');
		for (const phone of done) skip.add(phone);
	}
	const left = $('Fetch Recipients').first().json.recipients.map((r) => r.phone).filter((p) => !skip.has(p));
	const run = Date.now().toString(36);
	const out = [];
	for (let i = 0; i < left.length; i += ${BATCH_SIZE}) {
		out.push({ json: { campaign: body.campaign, batch: run + '-' + i / ${BATCH_SIZE}, recipients: left.slice(i, i + ${BATCH_SIZE}) } });
	}
	return out;
})()`,
	);
	const post = node('Post Batch', 'n8n-nodes-base.httpRequest', 4.2, {
		method: 'POST',
		url: "={{ $('Webhook').first().json.body.batchUrl }}",
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '={{ JSON.stringify($json) }}',
		options: {},
	});
	return chain('bench: campaign', [webhook(CAMPAIGN_PATH), fetchRecipients(), read, batches, post]);
}

/** This node: the send for each item, a summary item first, then only the problem items. */
function nodeSender(settings: SenderSettings, concurrency: number): WorkflowNode[] {
	const requestOptions = {
		output: 'summary',
		requestsPerSecond: settings.perProcessRps,
		concurrency,
	};
	const parameters =
		settings.kind === 'template'
			? {
					resource: 'message',
					operation: 'sendTemplate',
					senderNumber: locator(SENDER),
					template: locator(TEMPLATE_ID),
					destination: '={{ $json.phone }}',
					variablesMode: 'template',
					templateFields: { mappingMode: 'defineBelow', value: null },
					requestOptions,
				}
			: {
					resource: 'message',
					operation: 'sendSms',
					source: SMS_SENDER_ID,
					recipient: '={{ $json.phone }}',
					textMode: 'same',
					message: SMS_TEXT,
					smsOptions: { recipientsPerRequest: SMS_PER_REQUEST },
					requestOptions,
				};
	return [smsLeopard(SEND, settings.credential, parameters, { onError: 'continueRegularOutput' })];
}

/**
 * n8n's HTTP Request node at its best under a known limit: its own batching paces the requests
 * (BATCH_TICKS_PER_SECOND small batches a second, so no second starts with a burst), and On Error
 * continues, so a refused item shows as not sent instead of Retry On Fail sending everyone again.
 */
const BATCH_TICKS_PER_SECOND = 5;

function httpSender(settings: SenderSettings): WorkflowNode[] {
	const perTick = Math.max(1, Math.floor(settings.perProcessRps / BATCH_TICKS_PER_SECOND));
	const options = {
		batching: { batch: { batchSize: perTick, batchInterval: 1000 / BATCH_TICKS_PER_SECOND } },
	};
	const base = {
		method: 'POST',
		authentication: 'genericCredentialType',
		genericAuthType: 'httpBasicAuth',
		sendBody: true,
		contentType: 'json',
		specifyBody: 'json',
		options,
	};
	const extra = {
		credentials: { httpBasicAuth: settings.credential },
		onError: 'continueRegularOutput',
	};
	if (settings.kind === 'template') {
		return [
			node(
				SEND,
				'n8n-nodes-base.httpRequest',
				4.2,
				{
					...base,
					url: `${settings.chatUrl}/v1/${settings.channel}/send`,
					jsonBody: `={{ JSON.stringify({ phone_number_id: '${SENDER}', template_id: '${TEMPLATE_ID}', destination: $json.phone, component_list: { components: [] } }) }}`,
				},
				extra,
			),
		];
	}
	const group = code(
		'Group',
		`(() => {
	const all = $input.all().map((item) => ({ number: item.json.phone }));
	const out = [];
	for (let i = 0; i < all.length; i += ${SMS_PER_REQUEST}) out.push({ json: { destination: all.slice(i, i + ${SMS_PER_REQUEST}) } });
	return out;
})()`,
	);
	return [
		group,
		node(
			SEND,
			'n8n-nodes-base.httpRequest',
			4.2,
			{
				...base,
				url: `${settings.contactsUrl}/v1/sms/send`,
				jsonBody: `={{ JSON.stringify({ source: '${SMS_SENDER_ID}', message: '${SMS_TEXT}', destination: $json.destination }) }}`,
			},
			extra,
		),
	];
}

/**
 * One item for the record: this node's summary item as it is; the HTTP Request node's answers read
 * back (a recipient entry in an answer is sent; a failed request's recipients are not).
 */
const summarize = (sender: Sender, kind: Kind): WorkflowNode =>
	code(
		'Summarize',
		sender === 'node'
			? `(() => {
	const first = $input.first().json;
	if (first.summary === true) return [{ json: first }];
	// Without the summary output (an older node): every item, an error on the ones not sent.
	const phones = $('Recipients').all().map((item) => item.json.phone);
	const sentTo = [], notSentTo = [];
	$input.all().forEach((item, i) => (item.json.error ? notSentTo : sentTo).push(phones[i]));
	return [{ json: { sent: sentTo.length, maybeSent: 0, notSent: notSentTo.length, sentTo, maybeSentTo: [], notSentTo } }];
})()`
			: `(() => {
	const asked = ${kind === 'template' ? "$('Recipients').all().map((item) => [item.json.phone])" : "$('Group').all().map((item) => item.json.destination.map((d) => d.number))"};
	const sentTo = [], notSentTo = [];
	$input.all().forEach((item, i) => {
		const numbers = (item.json.recipients || []).map((r) => r.number);
		if (item.json.error || numbers.length === 0) notSentTo.push(...asked[i]);
		else sentTo.push(...numbers);
	});
	return [{ json: { sent: sentTo.length, maybeSent: 0, notSent: notSentTo.length, sentTo, maybeSentTo: [], notSentTo } }];
})()`,
	);

/** The batch workflow: write ahead, send, record the summary. */
export function batchWorkflow(settings: SenderSettings, concurrency = 20): WorkflowJson {
	const writeAhead = node('Write Ahead', 'n8n-nodes-base.dataTable', 1, {
		resource: 'row',
		operation: 'insert',
		dataTableId: records,
		columns: columns({
			campaign: '={{ $json.body.campaign }}',
			batch: '={{ $json.body.batch }}',
			status: 'sending',
			recipients: '={{ JSON.stringify($json.body.recipients) }}',
		}),
		options: {},
	});
	const recipients = code(
		'Recipients',
		"$('Webhook').first().json.body.recipients.map((phone) => ({ json: { phone } }))",
	);
	const record = node('Record', 'n8n-nodes-base.dataTable', 1, {
		resource: 'row',
		operation: 'update',
		dataTableId: records,
		matchType: 'allConditions',
		filters: {
			conditions: [
				{
					keyName: 'batch',
					condition: 'eq',
					keyValue: "={{ $('Webhook').first().json.body.batch }}",
				},
			],
		},
		columns: columns({
			status: 'done',
			sent: '={{ $json.sent }}',
			maybeSent: '={{ $json.maybeSent }}',
			notSent: '={{ $json.notSent }}',
			sentTo: '={{ JSON.stringify($json.sentTo) }}',
			maybeSentTo: '={{ JSON.stringify($json.maybeSentTo) }}',
			notSentTo: '={{ JSON.stringify($json.notSentTo) }}',
		}),
		options: {},
	});
	const sender =
		settings.sender === 'node' ? nodeSender(settings, concurrency) : httpSender(settings);
	return chain(`bench: campaign batch (${settings.sender}, ${settings.kind})`, [
		webhook(BATCH_PATH),
		writeAhead,
		recipients,
		...sender,
		summarize(settings.sender, settings.kind),
		record,
	]);
}

/** Every recipient into one node on one worker: the way the campaign replaces. */
export function oneExecutionWorkflow(settings: SenderSettings, concurrency = 20): WorkflowJson {
	const split = node('Split Out', 'n8n-nodes-base.splitOut', 1, {
		fieldToSplitOut: 'recipients',
		options: {},
	});
	return chain(`bench: one execution (${settings.kind})`, [
		webhook(ONE_EXECUTION_PATH),
		fetchRecipients(),
		split,
		...nodeSender(settings, concurrency),
	]);
}
