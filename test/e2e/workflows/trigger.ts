/**
 * The receiving half as a marketer wires it: an SMSLeopard Trigger alone (its executions are what
 * the tests read), and a campaign started by a Webhook call whose Send SMS points its delivery
 * reports at that trigger. Shared by the end-to-end suite and the queue-mode suite.
 */
import { randomUUID } from 'crypto';
import type { WorkflowJson } from '../harness';
import { code, node, smsLeopard, webhook, workflow } from './build';
import { SMS_SENDER_ID } from './sms';

export const TRIGGER_TYPE = 'n8n-nodes-smsleopard.smsLeopardTrigger';

export interface TriggerWorkflow {
	json: WorkflowJson;
	/** Where the trigger listens, below n8n's URL: /webhook/<webhookId>/smsleopard. */
	path: string;
}

export function reportsWorkflow(
	name: string,
	secret: string,
	parameters: Record<string, unknown> = {},
): TriggerWorkflow {
	const webhookId = randomUUID();
	const trigger = node(
		'SMSLeopard Trigger',
		TRIGGER_TYPE,
		1,
		{ secret, ...parameters },
		{ webhookId },
	);
	return { json: workflow(name, [[trigger]]), path: `/webhook/${webhookId}/smsleopard` };
}

/**
 * The trigger at version 2: its secret is the credential's Webhook Secret, so the workflow holds
 * the credential's id and name only.
 */
export function reportsWorkflowV2(
	name: string,
	credential: { id: string; name: string },
	parameters: Record<string, unknown> = {},
): TriggerWorkflow {
	const webhookId = randomUUID();
	const trigger = node('SMSLeopard Trigger', TRIGGER_TYPE, 2, parameters, {
		webhookId,
		credentials: { smsLeopardApi: credential },
	});
	return { json: workflow(name, [[trigger]]), path: `/webhook/${webhookId}/smsleopard` };
}

/** POST {phones: [...]} to /webhook/<path>: one SMS each, reports to `reportUrl` with `secret`. */
export function campaignWorkflow(
	credential: { id: string; name: string },
	path: string,
	reportUrl: string,
	/** Undefined: no Delivery Report Secret of its own, the credential's Webhook Secret is sent. */
	secret: string | undefined,
): WorkflowJson {
	const start = webhook(path, 'lastNode');
	const customers = code(
		'Customers',
		'$input.first().json.body.phones.map((phone) => ({ json: { phone } }))',
	);
	const send = smsLeopard('Send SMS', credential, {
		resource: 'message',
		operation: 'sendSms',
		source: SMS_SENDER_ID,
		recipient: '={{ $json.phone }}',
		message: 'Your order is on its way',
		smsOptions: { statusUrl: reportUrl, ...(secret === undefined ? {} : { statusSecret: secret }) },
	});
	return workflow(`campaign ${path}`, [[start, customers, send]]);
}
