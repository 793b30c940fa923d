/**
 * The two workflows of the reviewers' recording, imported before n8n starts (building them by hand
 * on camera would make the video long): "Delivery reports", an SMSLeopard Trigger the video
 * publishes, and "Send an SMS", whose Send SMS points its delivery reports at that trigger's
 * Production URL. Send SMS has no credential yet: the video creates and tests it.
 */
import type { WorkflowJson } from '../../test/e2e/harness';
import { NODE_TYPE, node, trigger, workflow } from '../../test/e2e/workflows/build';
import { SMS_SENDER_ID } from '../../test/e2e/workflows/sms';
import { TRIGGER_TYPE } from '../../test/e2e/workflows/trigger';

export const REPORTS_WORKFLOW_ID = 'smsleopardReports1';
export const SEND_WORKFLOW_ID = 'smsleopardSend1';
/** Fixed, so the trigger's Production URL is known before the workflow is opened. */
export const REPORTS_WEBHOOK_ID = '3f0b6c1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f';
/** A demo value shown on screen: it guards only this throwaway n8n. */
export const REPORT_SECRET = 'demo-report-secret';
export const TRIGGER_NAME = 'SMSLeopard Trigger';
export const SEND_NAME = 'Send SMS';
export const RECIPIENT = '+254722000001';

export function reportsUrl(n8nUrl: string): string {
	return `${n8nUrl}/webhook/${REPORTS_WEBHOOK_ID}/smsleopard`;
}

export function reportsWorkflow(): WorkflowJson {
	// Final statuses only: one execution per message (delivered or failed), not one for "sent" too.
	const reports = node(
		TRIGGER_NAME,
		TRIGGER_TYPE,
		1,
		{ secret: REPORT_SECRET, statuses: 'final' },
		{ webhookId: REPORTS_WEBHOOK_ID },
	);
	return { id: REPORTS_WORKFLOW_ID, ...workflow('Delivery reports', [[reports]]) };
}

export function sendWorkflow(n8nUrl: string): WorkflowJson {
	const send = node(SEND_NAME, NODE_TYPE, 1, {
		resource: 'message',
		operation: 'sendSms',
		source: SMS_SENDER_ID,
		recipient: RECIPIENT,
		message: 'Hi Amina, your order A-1001 is ready for pick-up.',
		smsOptions: { statusUrl: reportsUrl(n8nUrl), statusSecret: REPORT_SECRET },
	});
	return { id: SEND_WORKFLOW_ID, ...workflow('Send an SMS', [[trigger('Start'), send]]) };
}
