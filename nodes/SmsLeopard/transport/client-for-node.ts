/**
 * Builds the embedded client from the node's SMSLeopard credential. Plain http:// is refused except
 * on loopback hosts (base-url.ts), so a typo cannot send the API secret over the network unencrypted.
 */
import {
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	NodeOperationError,
	sleep,
} from 'n8n-workflow';
import {
	DEFAULT_CHANNEL,
	DEFAULT_CHAT_URL,
	DEFAULT_CONTACTS_URL,
	type RetryOptions,
	SmsLeopardClient,
	SmsLeopardValidationError,
} from '../client';
import { readBaseUrl } from './base-url';
import { describeValidation } from '../helpers/node-errors';
import { CREDENTIAL_TYPE, N8nTransport } from './n8n-transport';

export function checkBaseUrl(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	label: string,
	value: unknown,
	fallback: string,
): string {
	const checked = readBaseUrl(label, value, fallback);
	if (!checked.ok) {
		throw new NodeOperationError(context.getNode(), checked.message, {
			description: checked.description,
		});
	}
	return checked.url;
}

export interface NodeClientSettings {
	retry?: Partial<RetryOptions>;
	timeoutMs?: number;
	requestsPerSecond?: number;
	parallelCalls?: number;
}

export async function clientForNode(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	settings: NodeClientSettings = {},
): Promise<SmsLeopardClient> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const options = {
		transport: new N8nTransport(context, credentials),
		sleep,
		chatUrl: checkBaseUrl(context, 'Chat API URL', credentials.chatUrl, DEFAULT_CHAT_URL),
		contactsUrl: checkBaseUrl(
			context,
			'Contacts API URL',
			credentials.contactsUrl,
			DEFAULT_CONTACTS_URL,
		),
		channel:
			typeof credentials.channel === 'string' && credentials.channel.trim() !== ''
				? credentials.channel.trim()
				: DEFAULT_CHANNEL,
		...settings,
	};
	let refused: unknown;
	try {
		return new SmsLeopardClient(options);
	} catch (error) {
		refused = error;
	}
	// The client names its settings by their internal names (channel, timeoutMs): name them as the
	// credential and Request Options show them.
	if (!(refused instanceof SmsLeopardValidationError)) {
		throw new NodeOperationError(context.getNode(), refused as Error);
	}
	throw new NodeOperationError(context.getNode(), describeValidation(refused), {
		description:
			'Correct the setting named above in the SMSLeopard credential or the Request Options.',
	});
}
