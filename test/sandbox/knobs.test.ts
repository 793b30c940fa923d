import { Agent, request } from 'node:http';
import { startSandbox, TEMPLATES, type Sandbox } from './index';
import { body, call, send, sendPayload } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const senders = () => call(`${sb.chatUrl}/v1/phone_number_ids`);
const groups = () => call(`${sb.contactsUrl}/v1/groups/fetch`);

describe('latency', () => {
	it('delays every answer by latencyMs', async () => {
		sb.setOptions({ latencyMs: 150 });
		const started = Date.now();
		const res = await fetch(`${sb.chatUrl}/v1/phone_number_ids`); // even a 401
		expect(res.status).toBe(401);
		expect(Date.now() - started).toBeGreaterThanOrEqual(140);
	});
});

describe('rate limit', () => {
	it('answers 429 with Retry-After beyond the limit, per host, in each family shape', async () => {
		sb.setOptions({ rateLimitPerSecond: 3 });
		const chat = [];
		for (let i = 0; i < 5; i++) chat.push(await senders());
		expect(chat.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
		const limited = chat[3];
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number.isInteger(Number(limited.headers.get('retry-after')))).toBe(true);
		expect(limited.body).toEqual({
			error_code: 'rate_limited',
			error_message: expect.any(String),
			status_code: 429,
		});
		// The contacts host has its own window.
		const contacts = [];
		for (let i = 0; i < 4; i++) contacts.push(await groups());
		expect(contacts.map((r) => r.status)).toEqual([200, 200, 200, 429]);
		expect(contacts[3].body).toEqual({ error: 'rate_limited', message: expect.any(String) });
		expect(contacts[3].headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
	});

	it('lets requests through again once the window has slid', async () => {
		sb.setOptions({ rateLimitPerSecond: 2 });
		await senders();
		await senders();
		const refused = await senders();
		expect(refused.status).toBe(429);
		await new Promise((r) => setTimeout(r, Number(refused.headers.get('retry-after')) * 1000 + 50));
		expect((await senders()).status).toBe(200);
	});

	it('can be lifted at run time', async () => {
		sb.setOptions({ rateLimitPerSecond: 1 });
		await senders();
		expect((await senders()).status).toBe(429);
		sb.setOptions({ rateLimitPerSecond: undefined });
		expect((await senders()).status).toBe(200);
	});
});

describe('failure rate', () => {
	it('answers 500 in each family shape at failureRate 1, after auth', async () => {
		sb.setOptions({ failureRate: 1 });
		const chat = await senders();
		expect(chat.status).toBe(500);
		expect(chat.body).toEqual({
			error_code: 'internal_error',
			error_message: expect.any(String),
			status_code: 500,
		});
		const contacts = await groups();
		expect(contacts.status).toBe(500);
		expect(contacts.body).toEqual({ error: 'internal_error', message: expect.any(String) });
		expect((await fetch(`${sb.chatUrl}/v1/phone_number_ids`)).status).toBe(401);
		const sent = await send(sb, sendPayload(TEMPLATES.flow.id, []));
		expect(sent.status).toBe(500);
		expect(sb.state.sentMessages).toHaveLength(0);
	});

	it('fails a deterministic fraction, the same sequence after reset', async () => {
		const run = async () => {
			sb.setOptions({ failureRate: 0.3 });
			const statuses: number[] = [];
			for (let i = 0; i < 40; i++) statuses.push((await senders()).status);
			return statuses;
		};
		const first = await run();
		sb.reset();
		const second = await run();
		expect(second).toEqual(first);
		const failures = first.filter((s) => s === 500).length;
		expect(failures).toBeGreaterThan(3);
		expect(failures).toBeLessThan(25);
		expect(first.every((s) => s === 200 || s === 500)).toBe(true);
	});
});

describe('request recording', () => {
	it('records every request in order with query, headers, body and status', async () => {
		await call(`${sb.contactsUrl}/v1/groups/fetch?page=2&per=5`);
		await send(sb, sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'], ['2', 'b'])]), {
			'x-trace': 'abc',
		});
		await fetch(`${sb.chatUrl}/nowhere`);
		expect(sb.requests).toEqual([
			expect.objectContaining({
				host: 'contacts',
				method: 'GET',
				path: '/v1/groups/fetch',
				query: { page: '2', per: '5' },
				authorized: true,
				status: 200,
			}),
			expect.objectContaining({
				host: 'chat',
				method: 'POST',
				path: '/v1/whatsapp/send',
				body: expect.objectContaining({ template_id: 'tpl_order_update' }),
				status: 200,
				headers: expect.objectContaining({ 'x-trace': 'abc', 'content-type': 'application/json' }),
			}),
			expect.objectContaining({ host: 'chat', path: '/nowhere', authorized: false, status: 404 }),
		]);
		for (const r of sb.requests) expect(r.receivedAt).toBeLessThanOrEqual(Date.now());
	});

	it('reset clears the requests in place', async () => {
		const log = sb.requests;
		await senders();
		sb.reset();
		expect(log).toHaveLength(0);
		expect(sb.requests).toBe(log);
	});
});

describe('options and lifecycle', () => {
	it('refuses nonsense options', async () => {
		expect(() => sb.setOptions({ failureRate: 2 })).toThrow('failureRate');
		expect(() => sb.setOptions({ maxPerPage: 0 })).toThrow('maxPerPage');
		await expect(startSandbox({ latencyMs: -1 })).rejects.toThrow('latencyMs');
	});

	it('listens on fixed ports when asked and stops promptly despite keep-alive', async () => {
		const probe = await startSandbox();
		const chatPort = Number(new URL(probe.chatUrl).port);
		await probe.stop();
		const fixed = await startSandbox({ chatPort });
		expect(fixed.chatUrl).toBe(`http://127.0.0.1:${chatPort}`);
		// Open a keep-alive connection that would hold a plain close() open.
		await new Promise<void>((resolve) => {
			const agent = new Agent({ keepAlive: true });
			request(`${fixed.chatUrl}/v1/phone_number_ids`, { agent }, (res) => {
				res.resume();
				res.on('end', () => resolve());
			}).end();
		});
		const started = Date.now();
		await fixed.stop();
		expect(Date.now() - started).toBeLessThan(1000);
		await expect(fetch(`${fixed.chatUrl}/v1/phone_number_ids`)).rejects.toThrow();
	});
});

describe('putting knobs back', () => {
	it('currentOptions then restoreOptions restores a webhook URL that was off: nothing more is posted to it', () => {
		const before = sb.currentOptions();
		expect(before.whatsappWebhookUrl).toBeUndefined();
		sb.setOptions({ whatsappWebhookUrl: 'http://127.0.0.1:9/hook', smsDeliveryMs: 600_000 });
		expect(sb.currentOptions()).toMatchObject({
			whatsappWebhookUrl: 'http://127.0.0.1:9/hook',
			smsDeliveryMs: 600_000,
		});
		sb.restoreOptions(before);
		expect(sb.currentOptions().whatsappWebhookUrl).toBeUndefined();
		expect(sb.currentOptions().smsDeliveryMs).toBe(before.smsDeliveryMs);
	});

	it('undefined leaves a knob that has a default as it was', () => {
		sb.setOptions({ latencyMs: 7 });
		sb.setOptions({ latencyMs: undefined });
		expect(sb.currentOptions().latencyMs).toBe(7);
	});
});
