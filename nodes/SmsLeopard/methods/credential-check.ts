/**
 * What the credential's Test button checks (credentialTest.ts), with the time bound as a parameter
 * so tests can use a short one. The answer is read like the node's: at most 10 MB, and whole
 * within the bound, headers and body.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { DEFAULT_CHAT_URL, DEFAULT_CONTACTS_URL } from '../client';
import { groupsPageCall } from '../client/groups';
import { readBaseUrl } from '../transport/base-url';
import { describeSsrfBlock, ssrfBlockOf } from '../transport/request-failure';
import { answerDeadline, beforeDeadline } from '../transport/deadline';
import { MAX_ANSWER_BYTES, discardBody, readAnswer } from '../transport/read-answer';

const REFUSED = 'The API key or secret was refused by SMSLeopard';

/** What the Test says when n8n gives it no `request` helper: nothing can be sent. */
export const REQUEST_HELPER_MISSING =
	"This n8n gives a credential test no 'request' helper (helpers.request), which the SMSLeopard Test uses: nothing was sent. Update n8n-nodes-smsleopard for this n8n version";

/** The whole test, headers and body: n8n's editor waits for it. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 30_000;

interface FullResponse {
	statusCode: number;
	headers?: Record<string, unknown>;
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

/** The Test with a given time bound for the whole answer (tests use a short one). */
export async function testCredentialWithin(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
	timeoutMs: number,
): Promise<INodeCredentialTestResult> {
	const data: IDataObject = credential.data ?? {};
	const chat = readBaseUrl('Chat API URL', data.chatUrl, DEFAULT_CHAT_URL);
	if (!chat.ok) return failure(`${chat.message}. ${chat.description ?? ''}`.trim());
	const contacts = readBaseUrl('Contacts API URL', data.contactsUrl, DEFAULT_CONTACTS_URL);
	if (!contacts.ok) return failure(`${contacts.message}. ${contacts.description ?? ''}`.trim());

	// ICredentialTestFunctions gives a credential test one HTTP helper, `request` (n8n-workflow 1.123
	// to 2.41); the `httpRequest` that n8n's deprecation rule suggests does not exist in this context.
	// The day an n8n leaves it out, the Test says so instead of a misleading connection failure (and
	// the e2e matrix fails: test/e2e/credential-test.e2e.test.ts).
	const { request } = this.helpers as Partial<ICredentialTestFunctions['helpers']>;
	if (typeof request !== 'function') return failure(REQUEST_HELPER_MISSING);
	// The cheapest call that needs the key and secret: the first group, as the client asks for it.
	const groupsCheck = groupsPageCall({ page: 1, per: 1 });
	const deadline = answerDeadline(timeoutMs);
	let answered: { expired: true } | { expired: false; value: FullResponse };
	try {
		answered = await beforeDeadline(
			request({
				method: 'GET',
				uri: `${contacts.url.replace(/\/+$/, '')}${groupsCheck.path}`,
				qs: groupsCheck.query,
				auth: { user: String(data.apiKey ?? ''), pass: String(data.apiSecret ?? '') },
				json: true,
				// A redirect is answered, not followed: no other address ever receives the key and secret.
				followRedirect: false,
				followAllRedirects: false,
				simple: false,
				resolveWithFullResponse: true,
				// The body is read here, as the node's transport reads it: axios would read any length,
				// and its timeout only ends a connection that goes idle.
				useStream: true,
				timeout: timeoutMs,
			}) as Promise<FullResponse>,
			deadline,
			(late) => discardBody(late?.body),
		);
	} catch (error) {
		// n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED) guards the Test's request too.
		const blocked = ssrfBlockOf(error);
		if (blocked) return failure(describeSsrfBlock(contacts.url, blocked));
		const code = connectionCode(error);
		// axios's own (idle) timeout may end a silent host first: the same outcome as the deadline.
		if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') return failure(noAnswerInTime(timeoutMs));
		return failure(`Could not connect to the Contacts API URL (${code}): check the URL`);
	}
	if (answered.expired) return failure(noAnswerInTime(timeoutMs));
	const response = answered.value;
	const read = await readAnswer(response.body, lowerCase(response.headers), deadline);
	if ('failure' in read) {
		return failure(
			read.failure === 'ETOOLARGE'
				? `The Contacts API URL answered more than ${MAX_ANSWER_BYTES / 1024 / 1024} MB, which SMSLeopard never does: check the URL`
				: read.failure === 'ETIMEDOUT'
					? noAnswerInTime(timeoutMs)
					: `The answer of the Contacts API URL broke off (${read.failure}): check the URL`,
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
	const body = read.body as { success?: unknown } | undefined;
	if (body?.success === false) return failure(REFUSED);
	return { status: 'OK', message: 'Connection successful' };
}

function noAnswerInTime(timeoutMs: number): string {
	return `The Contacts API URL did not answer in full within ${timeoutMs / 1000} seconds (ETIMEDOUT): check the URL`;
}

function lowerCase(
	headers: Record<string, unknown> | undefined,
): Record<string, string | undefined> {
	const result: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(headers ?? {})) {
		result[name.toLowerCase()] = value === undefined ? undefined : String(value);
	}
	return result;
}
