// The plain-Node transport: the client's timeout covers the whole answer, and an answer over the
// size cap is not read whole. Bounds are generous upper limits, not timings.
import { SmsLeopardConnectionError } from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import { type HostilePace, hostileServer } from '../support/hostile-server';
import { SENDERS, TEMPLATES } from '../sandbox';

async function listSenders(pace: HostilePace, timeoutMs = 1000) {
	const server = await hostileServer(pace);
	const { client, transport } = createNodeClient({
		apiKey: 'key',
		apiSecret: 'secret',
		chatUrl: server.url,
		contactsUrl: server.url,
		timeoutMs,
		retry: { maxRetries: 0 },
	});
	const started = Date.now();
	try {
		const error = await client.listSenderNumbers().then(
			() => undefined,
			(caught: unknown) => caught,
		);
		return { error, seconds: (Date.now() - started) / 1000, written: server.state.written };
	} finally {
		transport.close();
		await server.close();
	}
}

describe('answers that do not end (plain-Node transport)', () => {
	it('a body that drips stops at the timeout', async () => {
		const { error, seconds } = await listSenders('drip');
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect((error as SmsLeopardConnectionError).causeCode).toBe('ETIMEDOUT');
		expect(seconds).toBeLessThan(10);
	});

	it('an endless fast body stops past the size cap', async () => {
		// A timeout far past the time 10 MB takes even on a loaded machine: the size cap ends it.
		const { error, written } = await listSenders('flood', 120_000);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect((error as SmsLeopardConnectionError).causeCode).toBe('ETOOLARGE');
		expect(written).toBeLessThan(100 * 1024 * 1024);
	});
});

/** Sends once (never repeated) through a server that answers the way `pace` says. */
async function sendThrough(pace: HostilePace, timeoutMs = 1000) {
	const server = await hostileServer(pace);
	const { client, transport } = createNodeClient({
		apiKey: 'key',
		apiSecret: 'secret',
		chatUrl: server.url,
		contactsUrl: server.url,
		timeoutMs,
		retry: { maxRetries: 0 },
	});
	const started = Date.now();
	try {
		const error = await client
			.sendTemplate({
				phoneNumberId: SENDERS.primary.phone_number_id,
				templateId: TEMPLATES.flow.id,
				destination: '+254700000001',
			})
			.then(
				() => undefined,
				(caught: unknown) => caught as SmsLeopardConnectionError,
			);
		return { error, seconds: (Date.now() - started) / 1000, requests: server.state.requests };
	} finally {
		transport.close();
		await server.close();
	}
}

// The timeout is 1 s; each bound leaves many seconds for a loaded machine, and far less than the
// time these answers would otherwise take (for ever).
describe('the whole answer within the timeout (plain-Node transport)', () => {
	it.each<[HostilePace, string]>([
		['silent', 'headers that never come'],
		['slowHeaders', 'headers that drip a byte every 300 ms'],
		['stall', 'a body that stops after its first bytes, the socket left open'],
		['cut', 'a body that stops in the middle of its JSON'],
		['slowDrip', 'a body that drips one byte a second'],
	])('%s (%s): a timeout, the send maybe sent, within the bound', async (pace) => {
		const { error, seconds, requests } = await sendThrough(pace);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(error?.causeCode).toBe('ETIMEDOUT');
		// The request was written whole: the service may have acted on it.
		expect(error?.requestSent).toBe(true);
		expect(requests).toBe(1);
		expect(seconds).toBeLessThan(8);
	});
});
