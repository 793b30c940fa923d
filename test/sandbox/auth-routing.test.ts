import { startSandbox, SANDBOX_API_KEY, SANDBOX_API_SECRET, type Sandbox } from './index';
import { AUTH, call } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const basic = (user: string) => `Basic ${Buffer.from(user).toString('base64')}`;

describe('authentication', () => {
	it('exposes the demo credentials', () => {
		expect(sb.credentials).toEqual({
			apiKey: 'sandbox-key',
			apiSecret: 'sandbox-secret-0123456789',
		});
		expect(SANDBOX_API_KEY).toBe('sandbox-key');
		expect(SANDBOX_API_SECRET).toBe('sandbox-secret-0123456789');
		expect(sb.chatUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sb.contactsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(sb.channel).toBe('whatsapp');
	});

	it('accepts correct Basic credentials on both hosts', async () => {
		expect((await call(`${sb.chatUrl}/v1/phone_number_ids`)).status).toBe(200);
		expect((await call(`${sb.contactsUrl}/v1/groups/fetch`)).status).toBe(200);
	});

	it.each([
		['missing', undefined],
		['wrong secret', basic('sandbox-key:wrong-secret')],
		['wrong key', basic('other-key:sandbox-secret-0123456789')],
		['no colon', basic('sandbox-key')],
		['bearer scheme', 'Bearer sandbox-key'],
		['raw key:secret, not base64', 'Basic sandbox-key:sandbox-secret-0123456789'],
	])('chat host answers 401 in the chat error shape (%s)', async (_label, header) => {
		const headers: Record<string, string> = header ? { authorization: header } : {};
		const res = await fetch(`${sb.chatUrl}/v1/phone_number_ids`, { headers });
		const body = await res.json();
		expect(res.status).toBe(401);
		expect(body).toEqual({
			error_code: 'unauthorized',
			error_message: expect.any(String),
			status_code: 401,
		});
		expect(JSON.stringify(body)).not.toContain('wrong-secret');
		expect(JSON.stringify(body)).not.toContain('other-key');
	});

	it('contacts host answers 401 in its own shape on every endpoint', async () => {
		const headers = { authorization: basic('sandbox-key:nope') };
		for (const [method, path] of [
			['GET', '/v1/groups/fetch'],
			['POST', '/v1/contacts/create'],
			['DELETE', '/v1/contacts/1001'],
		]) {
			const res = await fetch(`${sb.contactsUrl}${path}`, { method, headers });
			expect(res.status).toBe(401);
			expect(await res.json()).toEqual({
				success: false,
				message: 'Invalid API credentials',
				recipients: [],
			});
		}
		expect(sb.state.contacts.some((c) => c.id === 1001)).toBe(true);
	});

	it('checks auth on send and media before looking at the body', async () => {
		const res = await fetch(`${sb.chatUrl}/v1/whatsapp/send`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		expect(res.status).toBe(401);
		const up = await fetch(`${sb.chatUrl}/v1/whatsapp/media`, {
			method: 'POST',
			body: new FormData(),
		});
		expect(up.status).toBe(401);
		expect(sb.state.sentMessages).toHaveLength(0);
	});

	it('records unauthorised requests as such', async () => {
		await fetch(`${sb.chatUrl}/v1/phone_number_ids`);
		await call(`${sb.chatUrl}/v1/phone_number_ids`);
		expect(sb.requests.map((r) => [r.authorized, r.status])).toEqual([
			[false, 401],
			[true, 200],
		]);
		expect(sb.requests[1].headers.authorization).toBe(AUTH);
	});
});

describe('routing', () => {
	it('answers 404 in the chat shape for unknown chat paths, naming the right host', async () => {
		const res = await call(`${sb.chatUrl}/v1/contacts/create`, { json: {} });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			error_code: 'not_found',
			error_message: expect.stringContaining('contacts host'),
			status_code: 404,
		});
	});

	it('answers 404 for another channel segment, naming the served channel', async () => {
		const res = await call(`${sb.chatUrl}/v1/telegram/send`, { json: {} });
		expect(res.status).toBe(404);
		expect(res.body.error_message).toContain("channel 'whatsapp'");
	});

	it('answers 404 in the contacts shape for unknown contacts paths', async () => {
		const res = await call(`${sb.contactsUrl}/v1/whatsapp/send`, { json: {} });
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: 'not_found', message: expect.stringContaining('chat host') });
		expect((await call(`${sb.contactsUrl}/v2/groups/fetch`)).status).toBe(404);
	});

	it('answers 405 with Allow in each family shape', async () => {
		const chat = await call(`${sb.chatUrl}/v1/whatsapp/send`);
		expect(chat.status).toBe(405);
		expect(chat.headers.get('allow')).toBe('POST');
		expect(chat.body).toMatchObject({ error_code: 'method_not_allowed', status_code: 405 });
		const contacts = await call(`${sb.contactsUrl}/v1/contacts/create`, { method: 'DELETE' });
		expect(contacts.status).toBe(405);
		expect(contacts.body).toEqual({ error: 'method_not_allowed', message: expect.any(String) });
		const groups = await call(`${sb.contactsUrl}/v1/groups/fetch`, { method: 'POST', json: {} });
		expect(groups.status).toBe(405);
	});

	it('serves a custom channel segment', async () => {
		const other = await startSandbox({ channel: 'sms' });
		try {
			expect(other.channel).toBe('sms');
			const res = await call(`${other.chatUrl}/v1/sms/send`, { json: {} });
			expect(res.status).toBe(400);
			expect((await call(`${other.chatUrl}/v1/whatsapp/send`, { json: {} })).status).toBe(404);
		} finally {
			await other.stop();
		}
	});
});

describe('senders and templates', () => {
	it('lists the senders with the provider fields', async () => {
		const res = await call(`${sb.chatUrl}/v1/phone_number_ids`);
		expect(res.body).toEqual([
			{
				id: 1,
				business_account_id: 501,
				phone_number: '+254700000001',
				phone_number_id: '110000000000001',
				whatsapp_account_id: '210000000000501',
				messaging_limit: 1000,
			},
			expect.objectContaining({ id: 2, phone_number_id: '110000000000002', messaging_limit: 0 }),
		]);
	});

	it('lists the templates of a sender by record id', async () => {
		const res = await call(`${sb.chatUrl}/v1/phone_number_ids/1/templates`);
		expect(res.status).toBe(200);
		const ids = res.body.map((t: { id: string }) => t.id);
		expect(ids).toEqual(
			expect.arrayContaining(['tpl_order_update', 'tpl_otp', 'tpl_promo', 'tpl_pending']),
		);
		const otp = res.body.find((t: { id: string }) => t.id === 'tpl_otp');
		expect(otp).toEqual({
			id: 'tpl_otp',
			account_id: 501,
			name: 'otp',
			language: 'en_US',
			status: 'APPROVED',
			type: 'AUTHENTICATION',
			header: null,
			message: expect.stringContaining('*{{1}}* is your verification code'),
			footer: '',
			button: [
				{
					type: 'URL',
					text: 'Copy code',
					url: expect.stringMatching(/code=otp\{\{1\}\}$/),
					phone_number: '',
				},
			],
		});
		const two = await call(`${sb.chatUrl}/v1/phone_number_ids/2/templates`);
		expect(two.body.map((t: { id: string }) => t.id)).toEqual(['tpl_s2_reminder', 'tpl_s2_thanks']);
	});

	it('refuses a phone_number_id in the templates path with a helpful 404', async () => {
		const res = await call(`${sb.chatUrl}/v1/phone_number_ids/110000000000001/templates`);
		expect(res.status).toBe(404);
		expect(res.body.error_message).toContain('/v1/phone_number_ids/1/templates');
		expect((await call(`${sb.chatUrl}/v1/phone_number_ids/99/templates`)).status).toBe(404);
	});
});
