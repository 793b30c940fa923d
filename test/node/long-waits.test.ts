/**
 * Waits longer than a timer can hold (2^31 - 1 ms) neither spin on 1 ms timers nor last for ever,
 * in n8n's real engine: settings that would make them are refused before any request, naming the
 * field, and a Retry-After beyond the wait budget fails the item at once as rate limited, not sent.
 */
import type { INodeParameters } from 'n8n-workflow';
import { TEMPLATES } from '../sandbox';
import { startRecordingServer } from '../support/recording-server';
import { type NodeEnv, jsonItems, senderLocator, startNodeEnv, templateLocator } from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const send = (requestOptions: INodeParameters): INodeParameters => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(TEMPLATES.flow.id),
	destination: '={{ $json.phone }}',
	variablesMode: 'define',
	requestOptions,
});

const twoItems = jsonItems({ phone: '+254700600001' }, { phone: '+254700600002' });

describe('settings that would make waits beyond a timer', () => {
	it.each<[string, number | string, string]>([
		[
			'requestsPerSecond',
			0.0000001,
			'Max Requests per Second must be 0 (no limit) or at least 0.001',
		],
		[
			'requestsPerSecond',
			'1e-300',
			'Max Requests per Second must be 0 (no limit) or at least 0.001',
		],
		['timeout', 1e12, 'Timeout (Seconds) must be 86400 or less'],
		['maxRateLimitWait', 1e12, 'Max Wait on Rate Limit (Seconds) must be 86400 or less'],
	])('%s = %s is refused before any request', async (name, value, message) => {
		const started = Date.now();
		const { error } = await env.run(send({ [name]: value }), twoItems);
		expect(error?.message).toContain(`Request Options > ${message}`);
		expect(env.sandbox.requests).toHaveLength(0);
		expect(Date.now() - started).toBeLessThan(5000);
	});

	it('the slowest rate allowed still makes its first request at once', async () => {
		const { error, items } = await env.run(
			{
				resource: 'account',
				operation: 'getBalance',
				requestOptions: { requestsPerSecond: 0.001 },
			},
			jsonItems({}),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(env.sandbox.requests).toHaveLength(1);
	});
});

describe('a Retry-After beyond the wait budget', () => {
	it.each([
		['1000000000000', 'a trillion seconds'],
		['Fri, 31 Dec 9999 23:59:59 GMT', 'an HTTP date in the year 9999'],
		['86401', 'a second more than the largest budget'],
	])('%s (%s) fails the item at once: rate limited, not sent', async (retryAfter) => {
		const server = await startRecordingServer((_request, response) => {
			response.writeHead(429, { 'content-type': 'application/json', 'retry-after': retryAfter });
			response.end(JSON.stringify({ error: 'rate_limited', message: 'Too many requests' }));
		});
		try {
			const started = Date.now();
			const { error } = await env.run(
				{
					resource: 'message',
					operation: 'sendSms',
					source: 'SMS_Leopard',
					recipient: '={{ $json.phone }}',
					message: 'Flash sale today only',
					requestOptions: { maxRateLimitWait: 86400 },
				},
				jsonItems({ phone: '+254700600001' }),
				{ contactsUrl: server.url },
			);
			expect(error?.message).toMatch(/429|rate|too many/i);
			expect(error?.description).toMatch(/^Not sent.*item 1/m);
			expect(server.requests).toHaveLength(1);
			expect(Date.now() - started).toBeLessThan(5000);
		} finally {
			await server.stop();
		}
	});
});
