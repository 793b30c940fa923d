import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';
import {
	DEFAULT_CHANNEL,
	DEFAULT_CHAT_URL,
	DEFAULT_CONTACTS_URL,
} from '../nodes/SmsLeopard/client/http/hosts';
import { unsafeCredentialHosts } from '../nodes/SmsLeopard/helpers/credential-hosts';
import {
	CREDENTIAL_TEST_TIMEOUT_MS,
	credentialTest,
} from '../nodes/SmsLeopard/helpers/credential-test';

/**
 * SMSLeopard API key and secret, sent with HTTP Basic authentication by n8n itself (never a header
 * built by the node). Both hosts and the channel segment are editable so a credential can point at the
 * provider's sandbox, a proxy, or the local simulator that ships with this package.
 */
export class SmsLeopardApi implements ICredentialType {
	name = 'smsLeopardApi';

	displayName = 'SMSLeopard API';

	documentationUrl = 'https://github.com/n8n-nodes-smsleopard/n8n-nodes-smsleopard#credentials';

	icon = { light: 'file:smsleopard.svg', dark: 'file:smsleopard.dark.svg' } as const;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The API key from the API keys area of your SMSLeopard account (sandbox and production keys differ)',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API secret issued with the key',
		},
		{
			displayName: 'Chat API URL',
			name: 'chatUrl',
			type: 'string',
			default: DEFAULT_CHAT_URL,
			description:
				'Base URL for sending messages, uploading media, sender numbers and templates. Use https://; plain http:// is accepted only for localhost (e.g. the local sandbox).',
		},
		{
			displayName: 'Contacts API URL',
			name: 'contactsUrl',
			type: 'string',
			default: DEFAULT_CONTACTS_URL,
			description:
				'Base URL for contacts and groups. Use https://; plain http:// is accepted only for localhost (e.g. the local sandbox).',
		},
		{
			displayName: 'Channel (Part of the Chat API Paths)',
			name: 'channel',
			type: 'string',
			default: DEFAULT_CHANNEL,
			description:
				// n8n strips anything written like an HTML tag from descriptions: no angle brackets here.
				'The messaging channel, the word after /v1/ in the chat paths (as in /v1/whatsapp/send). Leave "whatsapp" unless SMSLeopard tells you otherwise.',
		},
		{
			displayName: 'Webhook Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Needed to receive with the SMSLeopard Trigger: without it the trigger lets no post in. A secret of your choosing that SMSLeopard sends back with delivery reports and WhatsApp events; the trigger accepts only posts carrying it, and Send SMS sends it as the Delivery Report Secret when that is empty. Not needed for sending. Kept encrypted here, so it is in no workflow or execution.',
		},
	];

	/**
	 * HTTP Basic with the key and secret, applied by n8n to every request, as n8n's generic
	 * `auth: { username: '={{$credentials.apiKey}}', password: '={{$credentials.apiSecret}}' }` would
	 * be, but without its two expressions: n8n resolves those on every request, in a fresh expression
	 * context each, and a CPU profile of 2,000 sends showed that as the largest single cost of a send
	 * (about 0.2 ms; CONTRIBUTING "Where a send's CPU goes").
	 *
	 * It refuses, before anything is sent, while a URL of the credential is plain http:// to a host
	 * other than loopback: the key and secret never travel unencrypted, whoever sends the request.
	 * A request that comes with no cancel signal (n8n sends the Test button's so; runs always have
	 * one) gets a bound on the whole answer: n8n's own timeout only ends a connection gone silent.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const unsafe = unsafeCredentialHosts(credentials);
		if (unsafe !== undefined) throw new Error(unsafe);
		return {
			...requestOptions,
			abortSignal: requestOptions.abortSignal ?? AbortSignal.timeout(CREDENTIAL_TEST_TIMEOUT_MS),
			auth: {
				username: String(credentials.apiKey ?? ''),
				password: String(credentials.apiSecret ?? ''),
			},
		};
	}

	/** The Test button: the first group on the contacts host (helpers/credential-test.ts). */
	test: ICredentialTestRequest = credentialTest;
}
