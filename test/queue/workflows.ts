/**
 * The queue-mode suite's workflows: each starts with a Webhook trigger (production URL), so the main
 * receives the call, queues the execution in Redis and a worker runs it.
 */
import type { WorkflowJson } from '../e2e/harness';
import { code, locator, smsLeopard, webhook, workflow } from '../e2e/workflows/build';
import { demoWorkflow } from '../e2e/workflows/demo';
import { flowSend } from '../e2e/workflows/flow-send';
import { SENDERS, TEMPLATES } from '../sandbox';

type Credential = { id: string; name: string };
const sender = SENDERS.primary.phone_number_id;

/**
 * Webhook (multipart: a PDF in field `header`, the recipients in field `phones`) -> one item per
 * recipient, all carrying the same uploaded binary -> Send Template with header media from that binary.
 */
export function binaryHeaderWorkflow(credential: Credential, path: string): WorkflowJson {
	const recipients = code(
		'Recipients',
		`$input.first().json.body.phones.split(',').map((phone) => ({ json: { phone }, binary: $input.first().binary }))`,
	);
	const send = smsLeopard('Send Invoice', credential, {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: locator(sender),
		template: locator(TEMPLATES.documentHeader.id),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: { mappingMode: 'defineBelow', value: { body_1: '={{ $json.phone }}' } },
		headerMedia: 'binary',
		binaryPropertyName: 'header',
		fileName: 'Invoice.pdf',
	});
	return workflow(`binary header ${path}`, [[webhook(path, 'lastNode'), recipients, send]]);
}

/** Webhook with JSON `{ prefix, count }` -> `count` recipients -> Send Template (no header). */
export function bulkSendWorkflow(
	credential: Credential,
	path: string,
	responseMode: 'lastNode' | 'onReceived' = 'lastNode',
	onError?: 'continueErrorOutput',
): WorkflowJson {
	const recipients = code(
		'Recipients',
		`Array.from({ length: $input.first().json.body.count }, (_, i) => ({ json: { phone: $input.first().json.body.prefix + String(i).padStart(5, '0') } }))`,
	);
	return workflow(`bulk ${path}`, [
		[webhook(path, responseMode), recipients, flowSend(credential, onError ? { onError } : {})],
	]);
}

/** Five recipients, two invalid, with the error output on: 3 sent, 2 on the error output. */
export function errorOutputWorkflow(credential: Credential, path: string): WorkflowJson {
	const five = code(
		'Five',
		"['+254710800011', 'not a number', '+254710800013', '', '+254710800015'].map((phone) => ({ json: { phone } }))",
	);
	return workflow(`error output ${path}`, [
		[webhook(path, 'lastNode'), five, flowSend(credential, { onError: 'continueErrorOutput' })],
	]);
}

/** The demo workflow (every operation once) with its manual trigger swapped for a webhook. */
export function everyOperationWorkflow(credential: Credential, path: string): WorkflowJson {
	const demo = demoWorkflow(credential);
	return {
		...demo,
		name: `every operation ${path}`,
		nodes: demo.nodes.map((entry) =>
			(entry as { type?: string }).type === 'n8n-nodes-base.manualTrigger'
				? { ...webhook(path, 'lastNode', (entry as { name: string }).name) }
				: entry,
		),
	};
}

/** Webhook -> 3 recipients -> Send SMS -> Delivery Report > Get; Webhook -> Account > Get Balance. */
export function smsWorkflow(credential: Credential, path: string): WorkflowJson {
	const start = webhook(path, 'lastNode');
	const three = code(
		'Three',
		"['+254700000001', '0700000002', '254700000003'].map((phone) => ({ json: { phone } }))",
	);
	const send = smsLeopard('Send SMS', credential, {
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		message: 'Flash sale today only',
	});
	const report = smsLeopard('Delivery Report', credential, {
		resource: 'deliveryReport',
		operation: 'get',
		messageId: '={{ $json.messageId }}',
	});
	const balance = smsLeopard('Balance', credential, {
		resource: 'account',
		operation: 'getBalance',
	});
	return workflow(`sms ${path}`, [
		[start, three, send, report],
		[start, balance],
	]);
}
