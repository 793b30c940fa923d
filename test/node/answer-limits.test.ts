/**
 * The Timeout covers the whole answer, not only its headers, and an answer larger than 10 MB is not
 * read: through n8n's real httpRequestWithAuthentication, against a local server whose body drips
 * one byte at a time or never ends. Bounds are generous upper limits, not timings.
 */
import { type HostilePace, hostileServer } from '../support/hostile-server';
import { TEMPLATES } from '../sandbox';
import { type NodeEnv, jsonItems, senderLocator, startNodeEnv, templateLocator } from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());

async function sendThrough(url: string, timeout = 1) {
	const started = Date.now();
	const { items, error } = await env.run(
		{
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: senderLocator,
			template: templateLocator(TEMPLATES.flow.id),
			destination: '+254700000001',
			variablesMode: 'define',
			requestOptions: { timeout, maxRateLimitWait: 0 },
		},
		jsonItems({}),
		{ continueOnFail: true, chatUrl: url },
	);
	expect(error).toBeUndefined();
	return { json: items[0].json as Record<string, unknown>, seconds: (Date.now() - started) / 1000 };
}

describe('answers that do not end', () => {
	it('a body that drips stops at the timeout (1 s), reported as a timeout', async () => {
		const server = await hostileServer('drip');
		try {
			const { json, seconds } = await sendThrough(server.url);
			expect(json).toMatchObject({ errorKind: 'connection', code: 'ETIMEDOUT' });
			expect(seconds).toBeLessThan(10);
		} finally {
			await server.close();
		}
	});

	it('an endless fast body stops past 10 MB, reported as too large, without reading it all', async () => {
		const server = await hostileServer('flood');
		try {
			// A timeout far past the time 10 MB takes even on a loaded machine: the size cap ends it.
			const { json } = await sendThrough(server.url, 120);
			expect(json).toMatchObject({ errorKind: 'connection', code: 'ETOOLARGE' });
			expect(String(json.error)).toContain('larger than 10 MB');
			// 10 MB read per request, plus what sat in socket buffers when the node let go.
			expect(server.state.written).toBeLessThan(100 * 1024 * 1024);
		} finally {
			await server.close();
		}
	});
});

// Timeout 1 s: each bound leaves many seconds for a loaded machine, far less than these answers
// would take (for ever). Before, a body that stopped with its socket open hung the run.
describe('the whole answer within Timeout, in n8n', () => {
	it.each<[HostilePace, string]>([
		['silent', 'headers that never come'],
		['slowHeaders', 'headers that drip a byte every 300 ms'],
		['stall', 'a body that stops after its first bytes, the socket left open'],
		['cut', 'a body that stops in the middle of its JSON'],
		['slowDrip', 'a body that drips one byte a second'],
	])('%s (%s): a timeout within the bound', async (pace) => {
		const server = await hostileServer(pace);
		try {
			const { json, seconds } = await sendThrough(server.url);
			expect(json).toMatchObject({ errorKind: 'connection', code: 'ETIMEDOUT' });
			expect(server.state.requests).toBe(1);
			expect(seconds).toBeLessThan(8);
		} finally {
			await server.close();
		}
	});

	it('a send whose answer stalls is reported as maybe sent when the run stops', async () => {
		// Send SMS: its first request is the send (a stalled listing before a send is "not sent").
		const server = await hostileServer('stall');
		try {
			const { error } = await env.run(
				{
					resource: 'message',
					operation: 'sendSms',
					source: 'SMS_Leopard',
					recipient: '+254700000001',
					message: 'Hello',
					requestOptions: { timeout: 1, maxRateLimitWait: 0 },
				},
				jsonItems({}),
				{ contactsUrl: server.url },
			);
			expect(error?.description).toMatch(/^Maybe sent, not confirmed by SMSLeopard: item 1/m);
		} finally {
			await server.close();
		}
	});
});
