import {
	SmsLeopardAuthenticationError,
	SmsLeopardConnectionError,
	SmsLeopardNotFoundError,
	SmsLeopardValidationError,
	type SendSmsRequest,
	currencyOf,
} from '../../nodes/SmsLeopard/client';
import { SMS_START_BALANCE } from '../sandbox';
import { type SandboxClient, caught, startSandboxClient } from '../support/sandbox-client';

let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient({ smsDeliveryMs: 300 });
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

const smsRequests = () => env.sandbox.requests.filter((r) => r.path === '/v1/sms/send');

describe('sendSms against the sandbox', () => {
	it('sends one text to many recipients and reads cost and currency', async () => {
		const answer = await env.client.sendSms({
			source: 'SMS_Leopard',
			message: 'Sale ends tonight',
			recipients: [{ number: '0712 345 678' }, { number: '+254700000002' }],
		});
		expect(answer.recipients.map((r) => [r.number, r.status, r.cost])).toEqual([
			['+254712345678', 'queued', 0.9],
			['+254700000002', 'queued', 0.9],
		]);
		expect(currencyOf(answer.message)).toBe('KES');
		expect(smsRequests()[0].body).toEqual({
			source: 'SMS_Leopard',
			message: 'Sale ends tonight',
			destination: [{ number: '0712345678' }, { number: '+254700000002' }],
		});
	});

	it('sends customized texts with multi and the delivery report URL with its secret', async () => {
		await env.client.sendSms({
			source: 'SMS_Leopard',
			message: 'Dear {name}',
			multi: true,
			recipients: [
				{ number: '+254700000001', message: 'Dear Amina' },
				{ number: '+254700000002', message: 'Dear Brian' },
			],
			statusUrl: 'https://example.com/webhook/sms',
			statusSecret: 'hook-secret',
		});
		expect(smsRequests()[0].body).toMatchObject({
			multi: true,
			destination: [
				{ number: '+254700000001', message: 'Dear Amina' },
				{ number: '+254700000002', message: 'Dear Brian' },
			],
			status_url: 'https://example.com/webhook/sms',
			status_secret: 'hook-secret',
		});
	});

	it.each([
		[
			{ statusUrl: 'https://example.com/hook' },
			'statusSecret',
			/required when a delivery report URL/,
		],
		[{ statusSecret: 'x' }, 'statusUrl', /only used with a delivery report URL/],
		[{ recipients: [{ number: 'call me' }] }, 'recipients[0].number', /not a valid phone number/],
		[{ recipients: [] }, 'recipients', /at least one recipient/],
		[{ multi: true }, 'recipients[0].message', /required when each recipient/],
		[{ source: ' ' }, 'source', /is required/],
	])('refuses %j before sending, naming %s', async (change, field, message) => {
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.sendSms({
				source: 'SMS_Leopard',
				message: 'Hi',
				recipients: [{ number: '+254700000001' }],
				...change,
			}),
		);
		expect(error).toBeInstanceOf(SmsLeopardValidationError);
		expect(error.field).toBe(field);
		expect(error.message).toMatch(message);
		expect(smsRequests()).toHaveLength(0);
	});

	it('refuses a text over Max Parts, naming the characters that forced UCS-2', async () => {
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.sendSms({
				source: 'SMS_Leopard',
				message: 'Don’t miss it! '.repeat(5),
				recipients: [{ number: '+254700000001' }],
				maxParts: 1,
			}),
		);
		expect(error.field).toBe('message');
		expect(error.message).toMatch(
			/2 parts .*because "’" is not in the GSM alphabet, so the text goes as UCS-2.*maximum of 1/,
		);
		expect(smsRequests()).toHaveLength(0);
	});

	it('never repeats a send whose answer was lost', async () => {
		env.sandbox.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		const error = await caught<SmsLeopardConnectionError>(() =>
			env.client.sendSms({
				source: 'SMS_Leopard',
				message: 'Once only',
				recipients: [{ number: '+254700000001' }, { number: '+254700000002' }],
			}),
		);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(error.requestSent).toBe(true);
		expect(smsRequests()).toHaveLength(1);
		expect(env.sandbox.state.smsMessages).toHaveLength(2);
	});

	it('reports wrong credentials as an authentication error without the secret', async () => {
		const error = await caught(() =>
			env.clientWith({ apiSecret: 'wrong-secret' }).sendSms({
				source: 'SMS_Leopard',
				message: 'Hi',
				recipients: [{ number: '+254700000001' }],
			}),
		);
		expect(error).toBeInstanceOf(SmsLeopardAuthenticationError);
		expect(String(error.message)).not.toContain('wrong-secret');
	});
});

describe('delivery reports and balance', () => {
	it('reads a report that changes from queued to DELIVRD', async () => {
		const answer = await env.client.sendSms({
			source: 'SMS_Leopard',
			message: 'Hi',
			recipients: [{ number: '+254700000001' }],
		});
		const id = answer.recipients[0].id ?? '';
		expect((await env.client.getDeliveryReport(id)).status).toMatch(/^(queued|sent)$/);
		let status = 'queued';
		for (let i = 0; i < 100 && status !== 'DELIVRD'; i++) {
			await new Promise((resolve) => setTimeout(resolve, 20));
			status = (await env.client.getDeliveryReport(id)).status ?? '';
		}
		expect(status).toBe('DELIVRD');
	});

	it('names an unknown message id and refuses a malformed one before sending', async () => {
		const missing = await caught(() =>
			env.client.getDeliveryReport('00000000-0000-4000-8000-000000000000'),
		);
		expect(missing).toBeInstanceOf(SmsLeopardNotFoundError);
		const malformed = await caught<SmsLeopardValidationError>(() =>
			env.client.getDeliveryReport('../balance'),
		);
		expect(malformed.field).toBe('messageId');
	});

	it('reads the balance with its currency', async () => {
		expect(await env.client.getBalance()).toMatchObject({
			balance: SMS_START_BALANCE,
			currency: 'KES',
		});
	});
});

describe('planning many one-recipient sends into requests', () => {
	const send = (number: string, extra: Partial<SendSmsRequest> = {}, recipientsPerRequest = 2) => ({
		request: {
			source: 'SMS_Leopard',
			message: 'Flash sale',
			recipients: [{ number }],
			maxParts: 1,
			...extra,
		},
		recipientsPerRequest,
	});

	it('groups sends that share sender, text and report URL, in first-seen order, cut to the size of the first send that passes', () => {
		const plan = env.client.planSms([
			send('12', {}, 7), // refused: its size does not count
			send('+254700000001', {}, 2),
			send('+254700000002', { message: 'Other text' }, 9),
			send('+254700000003'),
			send('+254700000004'),
			send('+254700000005', { maxParts: 0.5 }),
		]);
		expect(plan.refused.map((refusal) => refusal.position)).toEqual([0, 5]);
		expect(plan.refused[0].error).toBeInstanceOf(SmsLeopardValidationError);
		expect(plan.requests.map((request) => request.positions)).toEqual([[1, 3], [2], [4]]);
		expect(plan.requests[0].body).toEqual({
			source: 'SMS_Leopard',
			message: 'Flash sale',
			destination: [{ number: '+254700000001' }, { number: '+254700000003' }],
		});
		expect(plan.requests[1].body.message).toBe('Other text');
		expect(
			plan.requests.every((request) => request.segments.length === request.positions.length),
		).toBe(true);
	});

	it('sends exactly the planned body, once per request', async () => {
		const plan = env.client.planSms([send('+254700000001'), send('+254700000002')]);
		const answer = await env.client.sendPreparedSms(plan.requests[0]);
		expect(answer.recipients).toHaveLength(2);
		expect(smsRequests()).toHaveLength(1);
		expect(smsRequests()[0].body).toEqual(plan.requests[0].body);
	});
});
