/**
 * Builds the embedded client from the node's SMSLeopard credential. Plain http:// is refused except
 * on loopback hosts, so a typo cannot send the API secret over the network unencrypted.
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
} from '../client';
import { CREDENTIAL_TYPE, N8nTransport } from './n8n-transport';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export function checkBaseUrl(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	label: string,
	value: unknown,
	fallback: string,
): string {
	const text = typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw new NodeOperationError(context.getNode(), `The credential's ${label} is not a URL`, {
			description: `Open the SMSLeopard credential and set ${label} to a URL such as ${fallback}`,
		});
	}
	if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's ${label} uses plain http://`,
			{
				description: `Plain http:// would send the API key and secret unencrypted. Use https:// (http:// is accepted only for localhost, such as the local sandbox).`,
			},
		);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		throw new NodeOperationError(
			context.getNode(),
			`The credential's ${label} must start with https://`,
		);
	}
	return text;
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
	return new SmsLeopardClient({
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
	});
}
