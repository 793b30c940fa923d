/**
 * The credential refuses to put its key and secret on a request while either of its URLs is unsafe
 * (plain http:// to a host other than loopback, or not a URL at all). The node checks the URLs before
 * every run already (client/http/base-url.ts); this is the same check at the last step, where n8n attaches the
 * secret, so that requests n8n sends by itself (the credential's Test button) obey it too.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { DEFAULT_CHAT_URL, DEFAULT_CONTACTS_URL } from '../client/http/hosts';
import { readBaseUrl } from '../client/http/base-url';

/** Why the credential cannot be used, said as the Test and a run say it; undefined when it can. */
export function unsafeCredentialHosts(
	credentials: ICredentialDataDecryptedObject,
): string | undefined {
	const key = `${String(credentials.chatUrl ?? '')}\n${String(credentials.contactsUrl ?? '')}`;
	// n8n calls authenticate on every request of a run: the URLs are parsed once per change.
	if (key === lastKey) return lastVerdict;
	const checks = [
		readBaseUrl('Contacts API URL', credentials.contactsUrl, DEFAULT_CONTACTS_URL),
		readBaseUrl('Chat API URL', credentials.chatUrl, DEFAULT_CHAT_URL),
	];
	const refused = checks.find((check) => !check.ok);
	lastKey = key;
	lastVerdict =
		refused && !refused.ok ? `${refused.message}. ${refused.description ?? ''}`.trim() : undefined;
	return lastVerdict;
}

let lastKey: string | undefined;
let lastVerdict: string | undefined;
