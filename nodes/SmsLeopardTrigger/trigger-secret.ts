/**
 * Where the trigger's secret lives. Version 2 reads the SMSLeopard API credential's Webhook Secret,
 * which n8n stores encrypted and never copies into a workflow, an execution or an export. Version 1
 * kept it as a node parameter (plain text in all three); saved version 1 triggers keep working.
 */
import type { IWebhookFunctions } from 'n8n-workflow';
import { CREDENTIAL_TYPE } from '../SmsLeopard/transport/n8n-transport';

export interface TriggerSecret {
	/** '' when none is set: every post is refused. */
	secret: string;
	/** Where a marketer sets it, for the refusal log. */
	setIn: 'credential' | 'parameter';
}

export async function triggerSecret(context: IWebhookFunctions): Promise<TriggerSecret> {
	if (context.getNode().typeVersion < 2) {
		return { secret: String(context.getNodeParameter('secret', '')), setIn: 'parameter' };
	}
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	return { secret, setIn: 'credential' };
}
