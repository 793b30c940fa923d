import { startSandbox, SMS_START_BALANCE, type Sandbox } from './index';
import { call } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox({ smsDeliveryMs: 400 });
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const send = (json: unknown, headers?: Record<string, string>) =>
	call(`${sb.contactsUrl}/v1/sms/send`, { json, headers });
const report = (id: string) => call(`${sb.contactsUrl}/v1/delivery_reports/${id}`);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ok = { source: 'SMS_Leopard', message: 'Hello', destination: [{ number: '+254700000001' }] };

describe('send SMS', () => {
	it('answers 201 in the documented shape, cost per part, numbers made international', async () => {
		const res = await send({
			source: 'sms_leopard',
			message: 'Hi',
			destination: [{ number: '+254700000001' }, { number: '0712345678' }],
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			success: true,
			message: 'Sent to 2/2. Cost KES 1.80',
			recipients: [
				{ id: expect.stringMatching(UUID), cost: 0.9, number: '+254700000001', status: 'queued' },
				{ id: expect.stringMatching(UUID), cost: 0.9, number: '+254712345678', status: 'queued' },
			],
		});
		expect(sb.state.smsMessages.map((m) => m.source)).toEqual(['SMS_Leopard', 'SMS_Leopard']);
	});

	it('sends each recipient its own text with multi, priced by its parts', async () => {
		const long = 'é'.repeat(161); // GSM-7 but over one part: 2 parts
		const res = await send({
			source: 'SMS_Leopard',
			message: 'Dear {name}',
			multi: true,
			destination: [
				{ number: '254700000001', message: 'Dear Amina' },
				{ number: '254700000002', message: long },
				{ number: '254700000003', message: 'Karibu 😀' },
			],
		});
		expect(res.status).toBe(201);
		expect(res.body.recipients.map((r: { cost: number }) => r.cost)).toEqual([0.9, 1.8, 0.9]);
		expect(sb.state.smsMessages.map((m) => m.message)).toEqual(['Dear Amina', long, 'Karibu 😀']);
		expect(sb.state.smsBalance).toBeCloseTo(SMS_START_BALANCE - 3.6);
	});

	it('bills a two-unit character on a part boundary as networks split it: the pair moves whole', async () => {
		const straddling = [
			`${'a'.repeat(152)}€${'a'.repeat(152)}`, // 306 septets, 3 parts (152 + 154 cannot be 153 + 153)
			'😀'.repeat(67), // 134 UTF-16 units, 3 parts of 66, 66 and 2
			`${'a'.repeat(153)}€${'a'.repeat(151)}`, // 306 septets, 2 parts: the pair starts part two
		];
		const res = await send({
			source: 'SMS_Leopard',
			message: 'Dear {name}',
			multi: true,
			destination: straddling.map((message, i) => ({ number: `25470000000${i + 1}`, message })),
		});
		expect(res.status).toBe(201);
		expect(res.body.recipients.map((r: { cost: number }) => r.cost)).toEqual([2.7, 2.7, 1.8]);
	});

	it.each([
		[{ ...ok, source: undefined }, /source is required/],
		[{ ...ok, source: 'Other' }, /Sender ID 'Other' is not registered/],
		[{ ...ok, message: ' ' }, /message is required/],
		[{ ...ok, destination: [] }, /destination is required/],
		[
			{ ...ok, destination: [{ number: '0712 345 678' }] },
			/destination\[0\]\.number '0712 345 678'/,
		],
		[{ ...ok, destination: [{ number: '+25470000' }] }, /not a valid phone number/],
		[{ ...ok, multi: 'yes' }, /multi must be a boolean/],
		[{ ...ok, multi: true }, /destination\[0\]\.message is required when multi is true/],
		[{ ...ok, status_url: 'https://example.com/hook' }, /status_secret is required/],
		[{ ...ok, status_url: 'ftp://x', status_secret: 's' }, /status_url must be an http/],
		[{ ...ok, status_secret: 's' }, /status_secret is only used with status_url/],
	])('refuses %j with 400 in the contacts error shape', async (payload, message) => {
		const res = await send(payload);
		expect(res.status).toBe(400);
		expect(res.body).toEqual({ error: 'bad_request', message: expect.stringMatching(message) });
		expect(sb.state.smsMessages).toHaveLength(0);
	});

	it('accepts a delivery report URL with its secret', async () => {
		const res = await send({ ...ok, status_url: 'https://example.com/hook', status_secret: 's3' });
		expect(res.status).toBe(201);
		expect(sb.state.smsMessages[0].statusUrl).toBe('https://example.com/hook');
	});

	it('answers 401 in the contacts family shape without credentials', async () => {
		const res = await send(ok, { authorization: 'Basic d3Jvbmc6d3Jvbmc=' });
		expect(res.status).toBe(401);
		expect(res.body).toEqual({
			success: false,
			message: 'Invalid API credentials',
			recipients: [],
		});
	});

	it('lives on the contacts host only', async () => {
		const res = await call(`${sb.chatUrl}/v1/sms/send`, { json: ok });
		expect(res.status).toBe(404);
		expect(res.body.error_message).toMatch(/contacts host/);
	});
});

describe('delivery reports', () => {
	it('move from queued to sent to DELIVRD, or UNDELIV for numbers ending 999', async () => {
		const res = await send({
			...ok,
			destination: [{ number: '+254700000001' }, { number: '+254700000999' }],
		});
		const [good, bad] = res.body.recipients.map((r: { id: string }) => r.id);
		const first = await report(good);
		expect(first.status).toBe(201);
		expect(first.body).toEqual({
			id: good,
			reason: '',
			status: expect.stringMatching(/^(queued|sent)$/),
			time: expect.any(Number),
		});
		const statuses = new Set<string>();
		for (let i = 0; i < 100 && !statuses.has('DELIVRD'); i++) {
			statuses.add((await report(good)).body.status);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(statuses).toContain('DELIVRD');
		expect((await report(bad)).body).toMatchObject({
			status: 'UNDELIV',
			reason: 'Absent subscriber',
		});
	});

	it('answers 404 for an unknown id and 400 for something that is no id', async () => {
		const unknown = await report('00000000-0000-4000-8000-000000000000');
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({
			error: 'not_found',
			message: expect.stringMatching(/No message/),
		});
		expect((await report('42')).status).toBe(400);
	});
});

describe('balance', () => {
	it('answers the documented fields and goes down with each send', async () => {
		const before = await call(`${sb.contactsUrl}/v1/balance`);
		expect(before.status).toBe(200);
		expect(before.body).toEqual({
			balance: SMS_START_BALANCE,
			conversion_rate: expect.any(Number),
			converted_balance: expect.any(Number),
			currency: 'KES',
		});
		await send(ok);
		expect((await call(`${sb.contactsUrl}/v1/balance`)).body.balance).toBeCloseTo(
			SMS_START_BALANCE - 0.9,
		);
	});
});
