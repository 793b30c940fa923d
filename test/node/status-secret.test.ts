/**
 * Send SMS's Delivery Report Secret (status_secret) is a secret like the API key: a gateway that
 * echoes the request body in its error answer must not get it into item errors, the run error,
 * Continue On Fail items or error output items. It is per item (an expression can set it), so each
 * item's own secret is redacted. And reports travel with it, so the Delivery Report URL must be
 * https (http only for this machine).
 */
import type { INodeParameters } from 'n8n-workflow';
import type { RunNodeResult } from '../harness';
import { STATUS_SECRETS } from '../secret-scan/secrets';
import { type NodeEnv, jsonItems, startNodeEnv, smsSendParameters } from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv({ echoRequestBody: true });
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const [PLAIN, QUOTED] = STATUS_SECRETS;

const sendSms = (source: string, statusSecret: string): INodeParameters =>
	smsSendParameters({
		source,
		smsOptions: {
			statusUrl: 'https://n8n.example.com/webhook/sms-status',
			statusSecret,
			recipientsPerRequest: 1,
		},
	});

function everything(result: RunNodeResult): string {
	const { error } = result;
	return JSON.stringify({
		outputs: result.outputs,
		error,
		message: error?.message,
		description: error?.description,
		stack: error?.stack,
	});
}

/** The secret neither as written nor as it appears inside a JSON string. */
function expectNoSecret(text: string, secret: string): void {
	expect(text).not.toContain(secret);
	expect(text).not.toContain(JSON.stringify(secret).slice(1, -1));
}

describe('A gateway that echoes the request body in its error answer', () => {
	it('the echo really carries the secret (the knob works)', async () => {
		const { items } = await env.run(
			sendSms('Unregistered_ID', PLAIN),
			jsonItems({ phone: '+254700000001' }),
			{ continueOnFail: true },
		);
		const received = env.sandbox.requests.find((request) => request.path === '/v1/sms/send');
		expect(received?.body).toMatchObject({ status_secret: PLAIN });
		expect(received?.status).toBe(400);
		expect(String(items[0].json.error)).toContain('"status_secret":"[redacted]"');
	});

	it.each([
		['stops the run', {}],
		['Continue (regular output)', { continueOnFail: true }],
		['Continue (using error output)', { onError: 'continueErrorOutput' as const }],
	])('%s: no Delivery Report Secret in the errors or the items', async (_name, mode) => {
		for (const secret of STATUS_SECRETS) {
			const result = await env.run(
				sendSms('Unregistered_ID', secret),
				jsonItems({ phone: '+254700000001' }, { phone: '+254700000002' }),
				mode,
			);
			const text = everything(result);
			expect(text).toContain('not registered');
			expect(text).toContain('[redacted]');
			expectNoSecret(text, secret);
		}
	});

	it("each item's own secret from an expression is redacted", async () => {
		const result = await env.run(
			{
				...sendSms('Unregistered_ID', '={{ $json.secret }}'),
			},
			jsonItems(
				{ phone: '+254700000001', secret: PLAIN },
				{ phone: '+254700000002', secret: QUOTED },
			),
			{ continueOnFail: true },
		);
		const text = everything(result);
		expect(result.items).toHaveLength(2);
		for (const secret of STATUS_SECRETS) expectNoSecret(text, secret);
	});
});

describe('Delivery Report URL', () => {
	const withUrl = (statusUrl: string): INodeParameters => ({
		...sendSms('SMS_Leopard', PLAIN),
		smsOptions: { statusUrl, statusSecret: PLAIN },
	});

	it.each([
		'http://n8n.example.com/webhook/sms-status',
		'http://192.168.1.10:5678/webhook/sms-status',
		'http://127.0.0.1.nip.io/webhook',
		'http://localhost.example.com/webhook',
		'ftp://n8n.example.com/sms-status',
	])(
		'%s is refused before any request: reports and the secret would travel unencrypted',
		async (url) => {
			const { error } = await env.run(withUrl(url), jsonItems({ phone: '+254700000001' }));
			expect(error?.message).toContain(
				'"Delivery Report URL" must start with https:// (reports carry the Delivery Report Secret; http:// only for localhost, 127.0.0.1 or [::1])',
			);
			expect(env.sandbox.requests).toHaveLength(0);
		},
	);

	it.each([
		'https://n8n.example.com/webhook/sms-status',
		'http://localhost:5678/webhook/sms-status',
		'http://127.0.0.1:5678/webhook/sms-status',
		'http://127.1.2.3/webhook',
		'http://[::1]:5678/webhook',
	])('%s is accepted', async (url) => {
		const { error } = await env.run(withUrl(url), jsonItems({ phone: '+254700000001' }));
		expect(error).toBeUndefined();
		expect(env.sends()[0]).toMatchObject({ status_url: url, status_secret: PLAIN });
	});
});
