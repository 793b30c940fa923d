/**
 * Builds the embedded client from the node's SMSLeopard credential. Plain http:// is refused except
 * on loopback hosts (client/http/base-url.ts), so a typo cannot send the API secret over the network unencrypted.
 */
import {
	type IExecuteFunctions,
	type ILoadOptionsFunctions,
	NodeOperationError,
	sleep,
} from 'n8n-workflow';
import {
	AccountPacers,
	DEFAULT_CHANNEL,
	DEFAULT_CHAT_URL,
	DEFAULT_CONTACTS_URL,
	type RetryOptions,
	SmsLeopardClient,
	SmsLeopardValidationError,
} from '../client';
import { readBaseUrl } from '../client/http/base-url';
import { preciseNow, waitInPlace } from '../client/http/precise-clock';
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
	/** Executions sending with the account at once, this one included (client.ts). */
	sharedBy?: number;
	parallelCalls?: number;
	/**
	 * Pace with the other executions of this process that use the same credential (a run's client;
	 * the caller must `close()` it). Editor look-ups (lists, the Test) pace on their own.
	 */
	shareAccountPacing?: boolean;
}

/**
 * The pacers of the accounts in use in this n8n process: module state, so every execution in the
 * process (n8n runs several at once, in regular mode and on each worker) finds the same one.
 */
const ACCOUNT_PACERS = new AccountPacers();

export async function clientForNode(
	context: IExecuteFunctions | ILoadOptionsFunctions,
	settings: NodeClientSettings = {},
): Promise<SmsLeopardClient> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	const { shareAccountPacing, ...clientSettings } = settings;
	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	const options = {
		transport: new N8nTransport(context, credentials),
		sleep,
		// Pacing reads time to a fraction of a millisecond, and waits the last fraction before a start
		// under Max Requests per Second in place (client/http/precise-clock.ts).
		now: preciseNow,
		waitBriefly: waitInPlace,
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
		...clientSettings,
	};
	// One account: the same credential and hosts (a credential edited mid-run paces apart).
	const sharedPacing =
		shareAccountPacing && credentialId
			? {
					pacers: ACCOUNT_PACERS,
					key: `${credentialId}\u0000${options.chatUrl}\u0000${options.contactsUrl}`,
				}
			: undefined;
	let refused: unknown;
	try {
		return new SmsLeopardClient({ ...options, sharedPacing });
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
