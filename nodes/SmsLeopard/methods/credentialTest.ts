/**
 * The credential's Test button, run by the node's own rules (named by `testedBy` in the node's
 * credentials). A declarative credential test would be sent by n8n without the node's checks, so
 * plain http:// reached any host and redirects were followed with the key and secret. Here the URLs
 * are checked first, nothing is sent when one is refused, and the one request cannot be redirected.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { DEFAULT_CHAT_URL, DEFAULT_CONTACTS_URL } from '../client';
import { readBaseUrl } from '../transport/base-url';

const REFUSED = 'The API key or secret was refused by SMSLeopard';

interface FullResponse {
	statusCode: number;
	body: unknown;
}

function failure(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}

/** A connection error's code (ECONNREFUSED, ENOTFOUND, ...): never its message, which may hold the URL. */
function connectionCode(error: unknown): string {
	const candidates = [error, (error as { cause?: unknown } | undefined)?.cause];
	for (const candidate of candidates) {
		const code = (candidate as { code?: unknown } | undefined)?.code;
		if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return code;
	}
	return 'no answer';
}

/** Lists one group on the contacts host: a wrong key answers 401, a wrong URL fails to connect. */
export async function smsLeopardApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data: IDataObject = credential.data ?? {};
	const chat = readBaseUrl('Chat API URL', data.chatUrl, DEFAULT_CHAT_URL);
	if (!chat.ok) return failure(`${chat.message}. ${chat.description ?? ''}`.trim());
	const contacts = readBaseUrl('Contacts API URL', data.contactsUrl, DEFAULT_CONTACTS_URL);
	if (!contacts.ok) return failure(`${contacts.message}. ${contacts.description ?? ''}`.trim());

	// ICredentialTestFunctions gives a credential test one HTTP helper, `request` (n8n-workflow 1.123
	// to 2.41); the `httpRequest` that n8n's deprecation rule suggests does not exist in this context.
	const { request } = this.helpers;
	let response: FullResponse;
	try {
		response = (await request({
			method: 'GET',
			uri: `${contacts.url.replace(/\/+$/, '')}/v1/groups/fetch`,
			qs: { page: 1, per: 1 },
			auth: { user: String(data.apiKey ?? ''), pass: String(data.apiSecret ?? '') },
			json: true,
			// A redirect is answered, not followed: no other address ever receives the key and secret.
			followRedirect: false,
			followAllRedirects: false,
			simple: false,
			resolveWithFullResponse: true,
			timeout: 30_000,
		})) as FullResponse;
	} catch (error) {
		return failure(
			`Could not connect to the Contacts API URL (${connectionCode(error)}): check the URL`,
		);
	}

	const status = response.statusCode;
	if (status >= 300 && status < 400) {
		return failure(
			`The Contacts API URL answered with a redirect (HTTP ${status}); it was not followed, so the key and secret went nowhere else. Set the Contacts API URL to the final https:// address`,
		);
	}
	if (status === 401 || status === 403) return failure(REFUSED);
	if (status < 200 || status >= 300) {
		return failure(`The Contacts API URL answered HTTP ${status}: check the URL`);
	}
	const body = response.body as { success?: unknown } | undefined;
	if (body?.success === false) return failure(REFUSED);
	return { status: 'OK', message: 'Connection successful' };
}
