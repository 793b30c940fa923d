import http from 'http';
import type { AddressInfo } from 'net';
import {
	SmsLeopardAuthenticationError,
	SmsLeopardConnectionError,
	SmsLeopardRateLimitError,
	SmsLeopardResponseError,
	SmsLeopardServerError,
} from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import { SENDERS, TEMPLATES } from '../sandbox';
import { type SandboxClient, caught, startSandboxClient } from '../support/sandbox-client';

const sender = SENDERS.primary.phone_number_id;
let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient();
});
afterAll(async () => await env.close());
beforeEach(() => {
	env.sandbox.reset();
	env.sandbox.setOptions({ failureRate: 0, rateLimitPerSecond: undefined });
});

const send = (client = env.client) =>
	client.sendTemplate({
		phoneNumberId: sender,
		templateId: TEMPLATES.flow.id,
		destination: '+254700100001',
	});

describe('authentication errors', () => {
	it('reads the chat host 401 shape and never shows the secret', async () => {
		const wrong = env.clientWith({ apiSecret: 'wrong-secret-XYZ' });
		const error = await caught<SmsLeopardAuthenticationError>(() => send(wrong));
		expect(error).toBeInstanceOf(SmsLeopardAuthenticationError);
		expect(error.status).toBe(401);
		expect(error.code).toBe('unauthorized');
		expect(error.message).toMatch(/Check the API key and secret/);
		const everything = JSON.stringify({
			message: error.message,
			body: error.body,
			stack: error.stack,
		});
		expect(everything).not.toContain('wrong-secret-XYZ');
		expect(everything).not.toContain(env.sandbox.credentials.apiSecret);
	});

	it('reads the contacts host 401 shape {success:false, message, recipients:[]}', async () => {
		const wrong = env.clientWith({ apiSecret: 'wrong-secret-XYZ' });
		const error = await caught<SmsLeopardAuthenticationError>(() => wrong.getGroupsPage());
		expect(error).toBeInstanceOf(SmsLeopardAuthenticationError);
		expect(error.body).toMatchObject({ success: false, recipients: [] });
		expect(error.apiMessage).toEqual(expect.any(String));
		expect(error.message).not.toContain('wrong-secret-XYZ');
	});
});

describe('retries', () => {
	it('waits out 429 with Retry-After and finishes every send', async () => {
		env.sandbox.setOptions({ rateLimitPerSecond: 5 });
		const results = [];
		for (let i = 0; i < 8; i++) results.push(await send());
		expect(results).toHaveLength(8);
		expect(env.sandbox.requests.some((request) => request.status === 429)).toBe(true);
		expect(env.sandbox.state.sendCountByDestination['+254700100001']).toBe(8);
	}, 20_000);

	it('gives up on 429 once the wait budget is spent, with a rate-limit error', async () => {
		env.sandbox.setOptions({ rateLimitPerSecond: 1 });
		const impatient = env.clientWith({ retry: { maxTotalWaitMs: 10 } });
		await send(impatient);
		const error = await caught<SmsLeopardRateLimitError>(() => send(impatient));
		expect(error).toBeInstanceOf(SmsLeopardRateLimitError);
		expect(error.retryAfterMs).toBeGreaterThanOrEqual(1000);
	});

	it('never repeats a send after a 5xx (it may have been delivered)', async () => {
		env.sandbox.setOptions({ failureRate: 1 });
		const error = await caught<SmsLeopardServerError>(() => send());
		expect(error).toBeInstanceOf(SmsLeopardServerError);
		expect(env.sandbox.requests.filter((request) => request.path.endsWith('/send'))).toHaveLength(
			1,
		);
	});

	it('repeats a send after a 5xx only when retryUnsafe is set', async () => {
		env.sandbox.setOptions({ failureRate: 1 });
		const bold = env.clientWith({ retry: { retryUnsafe: true, maxRetries: 2 } });
		await caught(() => send(bold));
		expect(env.sandbox.requests.filter((request) => request.path.endsWith('/send'))).toHaveLength(
			3,
		);
	});

	it('repeats a read (GET) after a 5xx and succeeds once the service recovers', async () => {
		env.sandbox.setOptions({ failureRate: 1 });
		// A fresh client: the shared one still paces at the rate the 429 tests above slowed it to.
		const pending = env.clientWith({}).listSenderNumbers();
		// The service recovers once it has answered the first read with a 5xx (not after a set time:
		// on a busy machine the first read came after a 30 ms timer, met no failure, and proved nothing).
		const recoverBy = Date.now() + 10_000;
		while (
			!env.sandbox.requests.some((request) => request.status >= 500) &&
			Date.now() < recoverBy
		) {
			await new Promise((resolve) => setTimeout(resolve, 2));
		}
		env.sandbox.setOptions({ failureRate: 0 });
		const senders = await pending;
		expect(senders.map((item) => item.phone_number_id)).toContain(sender);
		expect(env.sandbox.requests.length).toBeGreaterThan(1);
	});
});

describe('transport failures', () => {
	it('says a refused connection never reached the server, after retrying it', async () => {
		const closed = http.createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const { client, transport } = createNodeClient({
			apiKey: 'k',
			apiSecret: 'very-secret-value',
			chatUrl: `http://127.0.0.1:${port}`,
			contactsUrl: `http://127.0.0.1:${port}`,
			retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
		});
		try {
			const error = await caught<SmsLeopardConnectionError>(() => send(client));
			expect(error).toBeInstanceOf(SmsLeopardConnectionError);
			expect(error.requestSent).toBe(false);
			expect(error.causeCode).toBe('ECONNREFUSED');
			expect(error.message).not.toContain('very-secret-value');
		} finally {
			transport.close();
		}
	});

	it('treats a success answer that is not JSON, or lacks what is needed, as a response error', async () => {
		const server = http.createServer((request, response) => {
			if (request.url?.startsWith('/v1/phone_number_ids')) {
				response.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
			} else {
				response.writeHead(200, { 'content-type': 'application/json' }).end('{"recipients": []}');
			}
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		const { client, transport } = createNodeClient({
			apiKey: 'k',
			apiSecret: 's',
			chatUrl: url,
			contactsUrl: url,
		});
		try {
			const html = await caught<SmsLeopardResponseError>(() => client.listSenderNumbers());
			expect(html).toBeInstanceOf(SmsLeopardResponseError);
			expect(html.message).toMatch(/unexpected body \(body: is not JSON\)/);
			const empty = await caught<SmsLeopardResponseError>(() => send(client));
			expect(empty).toBeInstanceOf(SmsLeopardResponseError);
			expect(empty.message).toContain('no recipient result was returned');
		} finally {
			transport.close();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});
