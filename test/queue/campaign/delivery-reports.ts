/**
 * Delivery reports as the campaign suites and the reports benchmark post them: the deliveries
 * table's columns (docs/deliveries.md), WhatsApp statuses in Meta's body, and the trigger workflow
 * of examples/ (opt-out list and deliveries) activated with a credential that has a Webhook Secret.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import type { N8nRest, WorkflowJson } from '../../e2e/harness';
import { EXAMPLES_DIR } from '../../e2e/workflows/examples';

export const DELIVERIES_TABLE = 'smsleopard_deliveries';
export const DELIVERY_TEXT_COLUMNS = [
	'messageId',
	'campaign',
	'batch',
	'phone',
	'channel',
	'status',
	'reason',
	'reportedAt',
	'fallback',
];
/** The columns and types of the contract, as n8n's data-table API takes them. */
export const DELIVERY_COLUMNS = [
	...DELIVERY_TEXT_COLUMNS.map((name) => ({ name, type: 'string' })),
	{ name: 'rank', type: 'number' },
];

export interface WhatsAppStatus {
	id: string;
	status: string;
	/** A failed one's reason, as Meta's errors[].title. */
	reason?: string;
}

/** Statuses in one post, in Meta's Cloud API body as SMSLeopard forwards it. */
export function whatsappStatusBody(statuses: WhatsAppStatus[]): string {
	return JSON.stringify({
		object: 'whatsapp_business_account',
		entry: [
			{
				changes: [
					{
						field: 'messages',
						value: {
							messaging_product: 'whatsapp',
							statuses: statuses.map(({ id, status, reason }) => ({
								id,
								status,
								timestamp: String(Math.floor(Date.now() / 1000)),
								recipient_id: '254712000000',
								...(reason ? { errors: [{ code: 131026, title: reason }] } : {}),
							})),
						},
					},
				],
			},
		],
	});
}

/**
 * Activates examples/opt-outs-from-replies.json with `credential` picked in its trigger; resolves
 * with the trigger's Production URL once it answers (bounded).
 */
export async function activateReplyWorkflow(
	rest: N8nRest,
	credential: { id: string; name: string },
	mainUrl: string,
	/** The trigger's Gather Posts in ms; as shipped when not given. */
	gatherMs?: number,
): Promise<string> {
	const workflow = JSON.parse(
		readFileSync(path.join(EXAMPLES_DIR, 'opt-outs-from-replies.json'), 'utf8'),
	) as WorkflowJson;
	const trigger = (workflow.nodes as Array<Record<string, unknown>>).find(
		(node) => node.name === 'SMSLeopard Trigger',
	)!;
	trigger.credentials = { smsLeopardApi: credential };
	if (gatherMs !== undefined) {
		const parameters = trigger.parameters as { options?: Record<string, unknown> };
		parameters.options = { ...parameters.options, gatherMs };
	}
	await rest.activateWorkflow({ ...workflow, projectId: await rest.personalProjectId() });
	const url = `${mainUrl}/webhook/${String(trigger.webhookId)}/smsleopard`;
	for (let attempt = 0; attempt < 60; attempt++) {
		if ((await fetch(url, { method: 'POST', body: '{}' })).status !== 404) break;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	return url;
}
