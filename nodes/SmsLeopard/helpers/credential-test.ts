/**
 * The credential's Test button, declared for n8n to send (`test` in SmsLeopardApi.credentials.ts):
 * the cheapest call that needs the key and secret, the first group on the contacts host.
 *
 * Declared rather than a node method because a method's only HTTP helper is n8n's deprecated
 * `request`, which n8n's lint and package scanner refuse (docs/decisions/0001-declarative-
 * credential-test.md). What the node's own rules gave the old method is kept where n8n allows it: plain http://
 * to another host is refused before anything is sent (by the credential's authenticate, see
 * credential-hosts.ts), a redirect is answered rather than followed, the request is bounded in time,
 * and the answers a person can act on get SMSLeopard's words.
 */
import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
} from 'n8n-workflow';
import { DEFAULT_CONTACTS_URL } from '../client/http/hosts';
import { groupsPageCall } from '../client/contacts/groups';

export const KEY_REFUSED = 'The API key or secret was refused by SMSLeopard';

/** n8n's editor waits for the Test; axios ends a connection that stays silent this long. */
export const CREDENTIAL_TEST_TIMEOUT_MS = 30_000;

const REDIRECT_CODES = [300, 301, 302, 303, 305, 307, 308];
/** Answers that mean the URL is wrong (or the service is down), not the key: each gets its words. */
const WRONG_PLACE_CODES = [400, 404, 405, 406, 410, 415, 500, 501, 502, 503, 504];

function byCode(value: number, message: string): IAuthenticateRuleResponseCode {
	return { type: 'responseCode', properties: { value, message } };
}

const groupsCheck = groupsPageCall({ page: 1, per: 1 });

const rules: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> = [
	byCode(401, KEY_REFUSED),
	byCode(403, KEY_REFUSED),
	...REDIRECT_CODES.map((code) =>
		byCode(
			code,
			`The Contacts API URL answered with a redirect (HTTP ${code}); it was not followed, so the key and secret went nowhere else. Set the Contacts API URL to the final https:// address`,
		),
	),
	byCode(
		429,
		'SMSLeopard is limiting requests right now (HTTP 429), so the key and secret could not be checked: try again in a minute',
	),
	...WRONG_PLACE_CODES.map((code) =>
		byCode(code, `The Contacts API URL answered HTTP ${code}: check the URL`),
	),
	// A service that answers 200 with { success: false } for a refused key, as some do.
	{
		type: 'responseSuccessBody',
		properties: { key: 'success', value: false, message: KEY_REFUSED },
	},
];

export const credentialTest: ICredentialTestRequest = {
	request: {
		method: groupsCheck.method,
		baseURL: `={{ String($credentials.contactsUrl || "${DEFAULT_CONTACTS_URL}").trim() }}`,
		url: groupsCheck.path,
		qs: groupsCheck.query,
		// A redirect is answered, not followed: no other address ever receives the key and secret.
		disableFollowRedirect: true,
		timeout: CREDENTIAL_TEST_TIMEOUT_MS,
	},
	// n8n's type lists rules of one kind only, but its CredentialsTester reads each rule by its own
	// `type` (responseCode on an error answer, responseSuccessBody on a 2xx), so both kinds are given.
	rules: rules as IAuthenticateRuleResponseCode[],
};
