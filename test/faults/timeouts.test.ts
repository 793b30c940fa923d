// Slow answers against the client's timeoutMs: past it, the client sees a connection error with
// requestSent (the server may well have acted, and here it has), and a send is not repeated.
import { SmsLeopardConnectionError } from '../../nodes/SmsLeopard/client';
import {
	type FaultEnv,
	SENDER,
	caught,
	destination,
	sendAttempts,
	sendCount,
	sendTo,
	startFaultEnv,
} from './fault-env';

let env: FaultEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

const TO = destination(7);

describe('a send answered after the client timeout', () => {
	it('is a connection error with requestSent, raised at the timeout, and not repeated', async () => {
		// The answer comes 5 s late: ending well before it shows the timeout ended the wait, with
		// room for a loaded machine.
		env.sandbox.setOptions({ slowRate: 1, slowMs: 5000 });
		const started = Date.now();
		const error = await caught<SmsLeopardConnectionError>(() =>
			sendTo(env.client({ timeoutMs: 200 }), TO),
		);
		const elapsed = Date.now() - started;
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(error.requestSent).toBe(true);
		expect(error.causeCode).toBe('ETIMEDOUT');
		expect(elapsed).toBeGreaterThanOrEqual(190);
		expect(elapsed).toBeLessThan(4000);
		// The server acted before it was slow to answer: the message went out exactly once.
		expect(sendCount(env.sandbox, TO)).toBe(1);
		expect(sendAttempts(env.sandbox)).toHaveLength(1);
	});

	it('is repeated only with retryUnsafe, and then delivered again', async () => {
		env.sandbox.setOptions({ slowRate: 1, slowMs: 800 });
		const bold = env.client({ timeoutMs: 100, retry: { retryUnsafe: true, maxRetries: 1 } });
		await expect(sendTo(bold, TO)).rejects.toBeInstanceOf(SmsLeopardConnectionError);
		expect(sendCount(env.sandbox, TO)).toBe(2);
	});

	it('succeeds when the answer comes within the timeout', async () => {
		env.sandbox.setOptions({ slowRate: 1, slowMs: 100 });
		const result = await sendTo(env.client({ timeoutMs: 2000 }), TO);
		expect(result.recipients[0].number).toBe(TO);
		expect(sendCount(env.sandbox, TO)).toBe(1);
	});
});

describe('reads answered after the client timeout', () => {
	it('are repeated until an answer comes in time', async () => {
		env.sandbox.setOptions({ slowRate: 0.5, slowMs: 600 });
		const client = env.client({ timeoutMs: 150 });
		for (let i = 0; i < 4; i++) {
			expect((await client.listSenderNumbers()).length).toBeGreaterThan(0);
			expect((await client.getGroupsPage()).groups.length).toBeGreaterThan(0);
		}
		expect(env.sandbox.requests.filter((r) => r.fault === 'slow').length).toBeGreaterThan(0);
	});

	it('give up after maxRetries with a timeout error, in bounded time', async () => {
		env.sandbox.setOptions({ slowRate: 1, slowMs: 5000 });
		const started = Date.now();
		const error = await caught<SmsLeopardConnectionError>(() =>
			env.client({ timeoutMs: 100, retry: { maxRetries: 2 } }).listSenderNumbers(),
		);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(error.causeCode).toBe('ETIMEDOUT');
		expect(env.sandbox.requests).toHaveLength(3);
		// Three 100 ms timeouts and two short backoffs, not one 5 s answer.
		expect(Date.now() - started).toBeLessThan(4000);
	});
});

describe('an upload answered after the client timeout', () => {
	it('is repeated (idempotent); the media id answered is that of the second record', async () => {
		env.onceFaulted({ slowRate: 1, slowMs: 600 });
		const media = await env.client({ timeoutMs: 150 }).uploadMedia({
			phoneNumberId: SENDER,
			file: { data: Buffer.alloc(1024, 2), mimeType: 'application/pdf', fileName: 'x.pdf' },
		});
		expect(env.sandbox.state.media).toHaveLength(2);
		expect(env.sandbox.state.media[1].media_id).toBe(media.media_id);
		expect(env.sandbox.requests).toHaveLength(2);
	});
});
