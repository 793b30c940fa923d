// The plain-Node transport: the client's timeout covers the whole answer, and an answer over the
// size cap is not read whole. Bounds are generous upper limits, not timings.
import { SmsLeopardConnectionError } from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import { hostileServer } from '../support/hostile-server';

async function listSenders(pace: 'drip' | 'flood', timeoutMs = 1000) {
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
