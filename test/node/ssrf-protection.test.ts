/**
 * n8n's SSRF protection (n8n 2.12 and later, N8N_SSRF_PROTECTION_ENABLED) refusing the node's
 * requests. n8n throws SsrfBlockedIpError (SsrfBlockedHostnameError for a name on its deny-list)
 * inside httpRequestWithAuthentication's try, which wraps every failure in a NodeApiError. The
 * project's n8n-core (2.8) has no SSRF protection, so the same error is thrown at the same place, the
 * credentials helper's authenticate, and n8n-core's real wrapping does the rest; the e2e suite
 * (test/e2e/n8n-settings.e2e.test.ts) meets the real refusal in n8n 2.41.1.
 */
import { UserError } from 'n8n-workflow';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { HarnessCredentialsHelper, runCredentialTest } from '../harness';
import { TEMPLATES } from '../sandbox';
import {
	jsonItems,
	senderLocator,
	smsSendParameters,
	templateLocator,
	useNodeEnv,
} from './support';

const env = useNodeEnv();

/** As @n8n/backend-network 2.41.1 ssrf/ssrf-blocked-ip.error.js builds it. */
class SsrfBlockedIpError extends UserError {
	readonly ip: string;
	readonly hostname?: string;
	constructor(ip: string, hostname?: string) {
		const target = hostname ? `'${hostname}' (${ip})` : ip;
		super('The request was blocked because it resolves to a restricted IP address', {
			description: `The target ${target} is not allowed. This is a security measure to prevent Server-Side Request Forgery (SSRF). If you need to access internal resources, ask your n8n administrator to allowlist the hostname or IP range in the environment configuration.`,
			extra: { ip, hostname },
		});
		this.name = 'SsrfBlockedIpError';
		this.ip = ip;
		this.hostname = hostname;
	}
}

/** As @n8n/backend-network 2.41.1 ssrf/ssrf-blocked-hostname.error.js builds it. */
class SsrfBlockedHostnameError extends UserError {
	readonly hostname: string;
	constructor(hostname: string) {
		super('The request was blocked because the destination hostname is restricted', {
			description: `The hostname '${hostname}' is on the configured deny-list.`,
			extra: { hostname },
		});
		this.name = 'SsrfBlockedHostnameError';
		this.hostname = hostname;
	}
}

/** Every request the node makes is refused the way n8n refuses it; the spy counts the refusals. */
function refuseEvery(refusal: () => Error) {
	return jest.spyOn(HarnessCredentialsHelper.prototype, 'authenticate').mockImplementation(() => {
		throw refusal();
	});
}
afterEach(() => jest.restoreAllMocks());

const sendTemplate = {
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(TEMPLATES.flow.id),
	destination: '={{ $json.phone }}',
	variablesMode: 'template',
};
const sendSms = smsSendParameters();

describe("n8n's SSRF protection refusing the node's requests", () => {
	it('a blocked address: the error names it and the setting, nothing was sent, nothing retried', async () => {
		const refusals = refuseEvery(() => new SsrfBlockedIpError('127.0.0.1'));
		const started = Date.now();
		const { error } = await env.run(sendTemplate, jsonItems({ phone: '+254700000001' }));
		const origin = new URL(env.credentials.smsLeopardApi.chatUrl).origin;
		expect(error?.message).toBe(
			`n8n's SSRF protection blocked the request to ${origin}: 127.0.0.1 is in a blocked IP range. To let n8n reach it, add 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES in n8n's environment and restart n8n`,
		);
		expect(error?.description).toContain(
			"Item 1: n8n refused to send the request (its settings, named above), so nothing was sent: it is safe to run again once they allow the host of the credential's URL.",
		);
		expect(error?.description).toContain('Sent: none.');
		// Refused once: a retry would meet the same rule, so the default retries and waits are skipped.
		expect(refusals).toHaveBeenCalledTimes(1);
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(env.sandbox.requests).toEqual([]);
	});

	it('under Continue On Fail: an error item, not sent, with its code', async () => {
		refuseEvery(() => new SsrfBlockedIpError('127.0.0.1'));
		const { items, error } = await env.run(
			sendTemplate,
			jsonItems({ phone: '+254700000001' }, { phone: '+254700000002' }),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		for (const item of items) {
			expect(item.json).toMatchObject({
				error: expect.stringContaining("n8n's SSRF protection blocked the request"),
				errorKind: 'connection',
				code: 'SSRF_BLOCKED',
				mayHaveBeenSent: false,
			});
		}
		expect(env.sandbox.requests).toEqual([]);
	});

	it('Send SMS (a send with no read before it): not sent, not "maybe sent"', async () => {
		refuseEvery(() => new SsrfBlockedIpError('127.0.0.1'));
		const { items } = await env.run(sendSms, jsonItems({ phone: '+254700000001' }), {
			continueOnFail: true,
		});
		expect(items[0].json).toMatchObject({ code: 'SSRF_BLOCKED', mayHaveBeenSent: false });
		expect(env.sandbox.requests).toEqual([]);
	});

	it('a host name that resolves to a blocked address: both ways to allow it', async () => {
		refuseEvery(() => new SsrfBlockedIpError('127.0.0.1', 'localhost'));
		const chatUrl = env.credentials.smsLeopardApi.chatUrl;
		const byName = chatUrl.replace('127.0.0.1', 'localhost');
		const { error } = await env.run(sendTemplate, jsonItems({ phone: '+254700000001' }), {
			chatUrl: byName,
		});
		expect(error?.message).toBe(
			`n8n's SSRF protection blocked the request to ${new URL(byName).origin}: localhost resolves to 127.0.0.1, in a blocked IP range. To let n8n reach it, add localhost to N8N_SSRF_ALLOWED_HOSTNAMES or 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES in n8n's environment and restart n8n`,
		);
	});

	it('a host name on the deny-list (N8N_SSRF_BLOCKED_HOSTNAMES)', async () => {
		refuseEvery(() => new SsrfBlockedHostnameError('localhost'));
		const byName = env.credentials.smsLeopardApi.chatUrl.replace('127.0.0.1', 'localhost');
		const { error } = await env.run(sendTemplate, jsonItems({ phone: '+254700000001' }), {
			chatUrl: byName,
		});
		expect(error?.message).toBe(
			`n8n's SSRF protection blocked the request to ${new URL(byName).origin}: localhost is in N8N_SSRF_BLOCKED_HOSTNAMES. To let n8n reach it, add localhost to N8N_SSRF_ALLOWED_HOSTNAMES in n8n's environment and restart n8n`,
		);
	});

	it('an IPv6 address gets a /128 range', async () => {
		refuseEvery(() => new SsrfBlockedIpError('::1'));
		const port = new URL(env.credentials.smsLeopardApi.chatUrl).port;
		const { error } = await env.run(sendTemplate, jsonItems({ phone: '+254700000001' }), {
			chatUrl: `http://[::1]:${port}`,
		});
		expect(error?.message).toContain('add ::1/128 to N8N_SSRF_ALLOWED_IP_RANGES');
	});

	it("any other failure of n8n's request is read as before", async () => {
		refuseEvery(() =>
			Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
		);
		const { items } = await env.run(
			// No waiting between attempts: a refused connection is retried.
			{ ...sendTemplate, requestOptions: { maxRateLimitWait: 0 } },
			jsonItems({ phone: '+254700000001' }),
			{ continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ code: 'ECONNREFUSED', mayHaveBeenSent: false });
	});

	// The Test is the credential's declarative test, run by n8n's CredentialsTester, which shows the
	// error's message only: n8n's own words, without the node's hint (the README says what to set).
	it("the credential's Test: n8n's own words, and nothing is sent", async () => {
		const refusals = refuseEvery(() => new SsrfBlockedIpError('127.0.0.1'));
		const result = await runCredentialTest(new SmsLeopardApi(), {
			...env.credentials.smsLeopardApi,
		});
		expect(result).toEqual({
			status: 'Error',
			message: 'The request was blocked because it resolves to a restricted IP address',
		});
		expect(refusals).toHaveBeenCalledTimes(1);
	});
});
