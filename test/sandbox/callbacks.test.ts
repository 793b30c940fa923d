import { createServer, type IncomingMessage } from 'http';
import type { AddressInfo } from 'net';
import { carriesSecret, readWebhookEvents } from '../../nodes/SmsLeopard/client';
import { parseArgs } from './cli';
import { type Sandbox, REPORT_SECRET_WAYS, REPORT_SHAPES, startSandbox } from './index';

/**
 * The sandbox posts what SMSLeopard would post back, in each shape and way of presenting the
 * secret; a receiver records the posts. The trigger's reader must read every one.
 */
interface Received {
	url: string;
	headers: IncomingMessage['headers'];
	body: string;
}

const received: Received[] = [];
const receiver = createServer((request, response) => {
	let body = '';
	request.on('data', (chunk: Buffer) => (body += chunk.toString()));
	request.on('end', () => {
		received.push({ url: request.url ?? '', headers: request.headers, body });
		response.writeHead(200).end('ok');
	});
});
let receiverUrl: string;
let sandbox: Sandbox;
const SECRET = 'callback-secret-8841';

beforeAll(async () => {
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/reports`;
	sandbox = await startSandbox({ smsDeliveryMs: 200 });
});
afterAll(async () => {
	await sandbox.stop();
	await new Promise((resolve) => receiver.close(resolve));
});
beforeEach(() => {
	sandbox.reset();
	received.length = 0;
});

async function sendSms(numbers: string[]): Promise<void> {
	const response = await fetch(`${sandbox.contactsUrl}/v1/sms/send`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			authorization: `Basic ${Buffer.from(`${sandbox.credentials.apiKey}:${sandbox.credentials.apiSecret}`).toString('base64')}`,
		},
		body: JSON.stringify({
			source: 'SMS_Leopard',
			message: 'Hi',
			destination: numbers.map((number) => ({ number })),
			status_url: receiverUrl,
			status_secret: SECRET,
		}),
	});
	expect(response.status).toBe(201);
}

const settle = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));

describe.each(REPORT_SHAPES.flatMap((shape) => REPORT_SECRET_WAYS.map((way) => [shape, way])))(
	'%s reports, secret in the %s',
	(shape, way) => {
		it('are posted sent, then final, and read back by the trigger with the secret found', async () => {
			sandbox.setOptions({ reportShape: shape as never, reportSecretIn: way as never });
			await sendSms(['+254733000001', '+254733000999']);
			await settle(500);
			expect(received.length).toBe(shape === 'wrapped' ? 2 : 4);
			const events = received.flatMap((post) => {
				const url = new URL(post.url, 'http://x');
				const body = post.headers['content-type']?.includes('json')
					? JSON.parse(post.body)
					: post.body;
				const request = {
					body,
					headers: post.headers as Record<string, string>,
					query: Object.fromEntries(url.searchParams),
				};
				expect(carriesSecret(request, SECRET)).toBe(true);
				expect(carriesSecret(request, `${SECRET}-not`)).toBe(false);
				return readWebhookEvents(body);
			});
			const ids = sandbox.state.smsMessages.map((message) => message.id);
			expect(events.map((event) => [event.messageId, event.status]).sort()).toEqual(
				[
					[ids[0], 'sent'],
					[ids[1], 'sent'],
					[ids[0], 'DELIVRD'],
					[ids[1], 'UNDELIV'],
				].sort(),
			);
			expect(sandbox.callbacks.map((post) => post.status)).toEqual(received.map(() => 200));
		});
	},
);

it('reset() cancels the reports not yet posted', async () => {
	await sendSms(['+254733000002']);
	sandbox.reset();
	await settle(400);
	expect(received).toEqual([]);
});

it('reads the callback flags', () => {
	expect(
		parseArgs([
			'--report-shape',
			'wrapped',
			'--report-secret-in=query',
			'--whatsapp-webhook-url',
			'http://127.0.0.1:5678/webhook/x/smsleopard',
			'--whatsapp-webhook-secret',
			's3cret',
		]),
	).toMatchObject({
		reportShape: 'wrapped',
		reportSecretIn: 'query',
		whatsappWebhookUrl: 'http://127.0.0.1:5678/webhook/x/smsleopard',
		whatsappWebhookSecret: 's3cret',
	});
});
