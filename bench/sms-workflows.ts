/**
 * The SMS benchmark's workflows: the same recipients sent by this node (100 per request, and one per
 * request), by n8n's HTTP Request node one request per item, and by the HTTP Request node after a
 * Code node has grouped the recipients 100 per request (the hand-built batching a user would
 * otherwise write). The batched run then reads Delivery Report > Get for its first 100 messages
 * and Account > Get Balance once. Both HTTP Request variants continue on error, so a failed item is counted
 * instead of stopping the run.
 */
import { type WorkflowNode, code, node, trigger, workflow } from '../test/e2e/workflows/build';
import { SMS_SENDER_ID, balance, deliveryReport, sendSms } from '../test/e2e/workflows/sms';
import type { WorkflowJson } from '../test/e2e/harness';
import { BASIC_AUTH_CREDENTIAL, SMSLEOPARD_CREDENTIAL, TARGET } from './workflows';

export const SMS_TEXT = 'Flash sale: 20% off today only. Reply STOP to opt out';
export const SMS_BATCH = 100;

/** `count` distinct numbers, +25472 and 7 digits (none ends 999 before 999 items). */
function recipients(count: number): WorkflowNode {
	return code(
		'Items',
		`Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+25472' + String(i).padStart(7, '0') } }))`,
	);
}

const smsNode = (recipientsPerRequest: number): WorkflowNode =>
	sendSms(TARGET, SMSLEOPARD_CREDENTIAL, SMS_TEXT, { recipientsPerRequest });

function httpSms(contactsUrl: string, body: string): WorkflowNode {
	return node(
		TARGET,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${contactsUrl}/v1/sms/send`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: body,
			options: {},
		},
		{
			credentials: { httpBasicAuth: BASIC_AUTH_CREDENTIAL },
			onError: 'continueRegularOutput',
		},
	);
}

/** A Code node turning recipient items into one item per batch of SMS_BATCH destinations. */
export const BATCHES = 'Batches';
const groupInBatches = code(
	BATCHES,
	`(() => {
	const all = $input.all().map((item) => ({ number: item.json.phone }));
	const out = [];
	for (let i = 0; i < all.length; i += ${SMS_BATCH}) out.push({ json: { destination: all.slice(i, i + ${SMS_BATCH}) } });
	return out;
})()`,
);

export const REPORTS = 'Delivery Reports';
export const BALANCE = 'Balance';
/** How many of the batched run's messages Delivery Report > Get reads, one request each. */
export const REPORT_COUNT = 100;

/** After the batched send: the reports of its first messages, then the balance once. */
const afterSend = (): WorkflowNode[] => [
	node('First Messages', 'n8n-nodes-base.limit', 1, { maxItems: REPORT_COUNT }),
	deliveryReport(REPORTS, SMSLEOPARD_CREDENTIAL),
	balance(BALANCE, SMSLEOPARD_CREDENTIAL),
];

export function smsWorkflows(
	count: number,
	contactsUrl: string,
	{ sendOnly = false }: { sendOnly?: boolean } = {},
): Record<'nodeBatched' | 'nodeOneByOne' | 'httpOneByOne' | 'httpBatched', WorkflowJson> {
	const make = (id: string, name: string, nodes: WorkflowNode[]): WorkflowJson => ({
		id,
		...workflow(name, [[trigger(), recipients(count), ...nodes]]),
	});
	const one = `={{ JSON.stringify({ source: '${SMS_SENDER_ID}', message: '${SMS_TEXT}', destination: [{ number: $json.phone }] }) }}`;
	const many = `={{ JSON.stringify({ source: '${SMS_SENDER_ID}', message: '${SMS_TEXT}', destination: $json.destination }) }}`;
	return {
		nodeBatched: make('benchSmsNodeBatch', 'bench: SMS node, 100 per request', [
			smsNode(SMS_BATCH),
			...(sendOnly ? [] : afterSend()),
		]),
		nodeOneByOne: make('benchSmsNodeOne', 'bench: SMS node, 1 per request', [smsNode(1)]),
		httpOneByOne: make('benchSmsHttpOne', 'bench: SMS HTTP Request, one by one', [
			httpSms(contactsUrl, one),
		]),
		httpBatched: make('benchSmsHttpBatch', 'bench: SMS HTTP Request, Code-node batches', [
			groupInBatches,
			httpSms(contactsUrl, many),
		]),
	};
}
