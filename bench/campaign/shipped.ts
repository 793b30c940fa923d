/**
 * The shipped campaign (examples/campaign-*.json, as test/queue/campaign reads them) set up for the
 * bench, and its HTTP Request twin:
 *
 * - node: the examples as shipped (the template batch, or the SMS batch: its text customized per
 *   recipient, still up to 100 recipients per request), with the bench's credential and Max Requests
 *   per Second set to the worker's share of the limit.
 * - http: the same fan-out, the same write-ahead row and record; only the send node is replaced by
 *   n8n's HTTP Request node (its own batching options pacing it, On Error continue; for SMS a Code
 *   node first groups 100 recipients per request with their customized texts, as the node does) and
 *   a Code node, named as the send node was, that reads its answers into the same summary item, so
 *   the record step downstream runs unchanged.
 */
import type { WorkflowJson } from '../../test/e2e/harness';
import {
	BATCH_FILE,
	CAMPAIGN_FILE,
	PLAN_FILE,
	SMS_BATCH_FILE,
	campaignWorkflow,
	readCampaignExample,
	webhookPath,
} from '../../test/queue/campaign/campaign-kit';
import { code, node } from '../../test/e2e/workflows/build';
import { BATCH_SIZE_CHOSEN, type Kind, type SenderSettings, SMS_PER_REQUEST } from './workflows';

export const SHIPPED_CAMPAIGN_PATH = webhookPath(CAMPAIGN_FILE, 'Campaign Webhook');
const batchFile = (kind: Kind) => (kind === 'sms' ? SMS_BATCH_FILE : BATCH_FILE);
/** The batch workflow's production webhook path: the campaign is told to post there. */
export const shippedBatchPath = (kind: Kind): string =>
	webhookPath(batchFile(kind), 'Batch Webhook');
const NODE_TYPE = 'n8n-nodes-smsleopard.smsLeopard';

/**
 * Max Requests per Second as the shipped template batch sets it (for an account allowing 500 a
 * second, the bench's limit): read from the example, so the bench runs what a user imports.
 */
export function shippedRequestsPerSecond(): number {
	const send = readCampaignExample(BATCH_FILE).nodes.find((entry) => entry.type === NODE_TYPE);
	const options = send?.parameters.requestOptions as { requestsPerSecond?: unknown } | undefined;
	if (typeof options?.requestsPerSecond !== 'number')
		throw new Error(`${BATCH_FILE}: its SMSLeopard node sets no Max Requests per Second`);
	return options.requestsPerSecond;
}

interface Node {
	name: string;
	type: string;
	position: [number, number];
	parameters: Record<string, unknown>;
	[key: string]: unknown;
}
type Connections = Record<
	string,
	{ main?: Array<Array<{ node: string; type: string; index: number }> | null> }
>;

/**
 * The parent as shipped (it has no SMSLeopard node), its key credential picked, and Campaign
 * Settings as an owner sets them for the bench: the channel, and the caller (the bench) may post
 * the list's link.
 */
export function shippedCampaign(
	credential: { id: string; name: string },
	key: { id: string; name: string },
	formLogin: { id: string; name: string },
	kind: Kind,
	plan: string,
	keepSuccessful = false,
): WorkflowJson {
	const workflow = campaignWorkflow(CAMPAIGN_FILE, credential, {}, undefined, {
		key,
		formLogin,
		plan,
		settings: {
			channel: kind === 'sms' ? 'sms' : 'whatsapp',
			callerMaySetListLink: true,
			// Only an experiment's batch size: otherwise the campaign runs as shipped.
			...(BATCH_SIZE_CHOSEN ? { batchSize: BATCH_SIZE_CHOSEN } : {}),
		},
	});
	// BENCH_KEEP_BATCHES=1 keeps the campaign's own execution too: its nodes are the opening.
	return keepSuccessful ? keepingSuccessfulRuns(workflow) : workflow;
}

/**
 * The plan workflow as shipped (it keeps no successful execution, which is its point), its key
 * credential picked on Queue Batch. BENCH_KEEP_BATCHES=1 keeps its executions too.
 */
export function shippedPlan(
	credential: { id: string; name: string },
	key: { id: string; name: string },
	keepSuccessful = false,
): WorkflowJson {
	const workflow = campaignWorkflow(PLAN_FILE, credential, {}, undefined, { key });
	return keepSuccessful ? keepingSuccessfulRuns(workflow) : workflow;
}

/** The workflow set to keep its successful executions (as shipped it keeps none). */
function keepingSuccessfulRuns(workflow: WorkflowJson): WorkflowJson {
	workflow.settings = {
		...(workflow.settings as Record<string, unknown>),
		saveDataSuccessExecution: 'all',
	};
	return workflow;
}

/** The batch workflow for `settings`: shipped, or with its send node swapped as described above. */
export function shippedBatch(settings: SenderSettings): WorkflowJson {
	const file = batchFile(settings.kind);
	const workflow = campaignWorkflow(
		file,
		settings.credential,
		{
			requestsPerSecond: settings.accountRps,
			...(settings.itemsInParallel ? { concurrency: settings.itemsInParallel } : {}),
		},
		undefined,
		{ key: settings.campaignKey },
	);
	if (settings.keepSuccessful) keepingSuccessfulRuns(workflow);
	const send = (workflow.nodes as Node[]).find((entry) => entry.type === NODE_TYPE);
	if (!send) throw new Error(`${file}: no SMSLeopard node`);
	return settings.sender === 'node' ? workflow : withHttpSender(workflow, send, settings);
}

/** The shipped batch's send node for `settings` (this node), for the one-execution comparison. */
export function shippedSendNode(settings: SenderSettings): Node {
	const batch = shippedBatch({ ...settings, sender: 'node' });
	const send = (batch.nodes as Node[]).find((entry) => entry.type === NODE_TYPE);
	if (!send) throw new Error('the shipped batch has no SMSLeopard node');
	return send;
}

/** Five small batches a second: no second opens with a burst of the whole second's share. */
const TICKS_PER_SECOND = 5;

function withHttpSender(
	workflow: WorkflowJson,
	send: Node,
	settings: SenderSettings,
): WorkflowJson {
	// The HTTP Request node cannot share the limit: each worker paces a fixed share of it.
	const perWorker = settings.accountRps / settings.workers;
	const perTick = Math.max(1, Math.floor(perWorker / TICKS_PER_SECOND));
	const customized = send.parameters.textMode === 'customized';
	const request = node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url:
				settings.kind === 'template'
					? `${settings.chatUrl}/v1/${settings.channel}/send`
					: `${settings.contactsUrl}/v1/sms/send`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody:
				settings.kind === 'template'
					? // What the node sends for the shipped template: sender, template, the name in the
						// header and body.
						`={{ JSON.stringify({ phone_number_id: '${String((send.parameters.senderNumber as { value: string }).value)}', template_id: '${String((send.parameters.template as { value: string }).value)}', destination: $json.phone, component_list: { components: [{ component_type: 'HEADER', fields: [{ name: '1', value: $json.name || 'there' }] }, { component_type: 'BODY', fields: [{ name: '1', value: $json.name || 'there' }, { name: '2', value: 'our spring sale' }] }] } }) }}`
					: `={{ JSON.stringify({ source: ${JSON.stringify(send.parameters.source)}, message: ${JSON.stringify(send.parameters.message)}, ${customized ? 'multi: true, ' : ''}destination: $json.destination }) }}`,
			options: {
				batching: { batch: { batchSize: perTick, batchInterval: 1000 / TICKS_PER_SECOND } },
			},
		},
		{ credentials: { httpBasicAuth: settings.credential }, onError: 'continueRegularOutput' },
	);
	// The node's customized text: {column} filled from the recipient's item.
	const group = code(
		'Group',
		`(() => {
	const pattern = ${JSON.stringify(String(send.parameters.message ?? ''))};
	const fill = (json) => pattern.replace(/\\{(\\w+)\\}/g, (whole, key) => (json[key] ?? whole));
	const all = $input.all().map((item) => (${customized ? '{ number: item.json.phone, message: fill(item.json) }' : '{ number: item.json.phone }'}));
	const out = [];
	for (let i = 0; i < all.length; i += ${SMS_PER_REQUEST}) out.push({ json: { destination: all.slice(i, i + ${SMS_PER_REQUEST}) } });
	return out;
})()`,
	);
	// Named as the send node was: the record step reads it by that name.
	const summary = code(send.name, '[]');
	summary.parameters = { jsCode: summaryCode(settings.kind, feederOf(workflow, send.name)) };
	const sendIndex = workflow.nodes.indexOf(send);
	const chain = settings.kind === 'template' ? [request, summary] : [group, request, summary];
	chain.forEach(
		(entry, index) => (entry.position = [send.position[0] + index * 220, send.position[1]]),
	);
	const nodes = [...workflow.nodes];
	nodes.splice(sendIndex, 1, ...chain);
	const connections = { ...(workflow.connections as Connections) };
	// Whatever fed the send node now feeds the first new node; the summary keeps the send's outputs.
	for (const outputs of Object.values(connections)) {
		for (const targets of outputs.main ?? []) {
			for (const target of targets ?? [])
				if (target.node === send.name) target.node = chain[0].name;
		}
	}
	for (let index = 0; index < chain.length - 1; index++) {
		connections[chain[index].name] = {
			main: [[{ node: chain[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	return { ...workflow, nodes, connections };
}

/** The node whose output feeds `name` (the batch's one item per recipient). */
function feederOf(workflow: WorkflowJson, name: string): string {
	for (const [from, outputs] of Object.entries(workflow.connections as Connections)) {
		if ((outputs.main ?? []).some((targets) => (targets ?? []).some((t) => t.node === name))) {
			return from;
		}
	}
	throw new Error(`nothing feeds ${name}`);
}

/**
 * The HTTP Request node's answers read into this node's summary shape: an answer's recipient entries
 * are sent (with their message ids); a request the service refused (a status code) sent nothing; one
 * without any answer is maybe sent. Answers come in the order of the requests.
 */
function summaryCode(kind: 'template' | 'sms', feeder: string): string {
	const asked =
		kind === 'template'
			? `$('${feeder}').all().map((item) => [item.json.phone])`
			: "$('Group').all().map((item) => item.json.destination.map((d) => d.number))";
	return `const asked = ${asked};
const sentTo = [], messageIds = [], maybeSentTo = [], notSentTo = [];
let cost = 0;
$input.all().forEach((item, i) => {
	const json = item.json;
	const entries = Array.isArray(json.recipients) ? json.recipients : [];
	if (json.error || entries.length === 0) {
		const answered = /\\b[45]\\d\\d\\b/.test(JSON.stringify(json.error ?? json));
		(answered ? notSentTo : maybeSentTo).push(...asked[i]);
		return;
	}
	for (const entry of entries) {
		sentTo.push(entry.number);
		messageIds.push(entry.id);
		cost += Number(entry.cost) || 0;
	}
});
return [{ json: { summary: true, items: asked.flat().length, sent: sentTo.length, maybeSent: maybeSentTo.length, notSent: notSentTo.length, cost: Math.round(cost * 1e6) / 1e6, sentTo, messageIds, maybeSentTo, notSentTo } }];`;
}
