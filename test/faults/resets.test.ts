// Connection resets through the real client: a reset before handling left nothing done, a reset
// after handling left the message sent, and the client cannot tell them apart. Either way a send is
// never repeated (unless retryUnsafe), while reads are repeated until they succeed.
import { SmsLeopardConnectionError, SmsLeopardNotFoundError } from '../../nodes/SmsLeopard/client';
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

const TO = destination(1);

describe('a send whose connection is reset', () => {
	it.each(['beforeHandling', 'afterHandling'] as const)(
		'%s: fails with a connection error that says the request was sent, and is not repeated',
		async (resetMode) => {
			env.sandbox.setOptions({ resetRate: 1, resetMode });
			const error = await caught<SmsLeopardConnectionError>(() => sendTo(env.client(), TO));
			expect(error).toBeInstanceOf(SmsLeopardConnectionError);
			expect(error.requestSent).toBe(true);
			expect(['ECONNRESET', 'EPIPE']).toContain(error.causeCode);
			expect(error.message).toMatch(/after the request was sent/);
			expect(sendAttempts(env.sandbox)).toHaveLength(1);
			expect(sendCount(env.sandbox, TO)).toBe(resetMode === 'afterHandling' ? 1 : 0);
		},
	);

	it('after handling, sends again only with retryUnsafe (which does deliver twice)', async () => {
		env.sandbox.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		const bold = env.client({ retry: { retryUnsafe: true, maxRetries: 2 } });
		await expect(sendTo(bold, TO)).rejects.toBeInstanceOf(SmsLeopardConnectionError);
		expect(sendAttempts(env.sandbox)).toHaveLength(3);
		expect(sendCount(env.sandbox, TO)).toBe(3);
	});

	it('the next send on the same client works normally once the resets stop', async () => {
		const client = env.client();
		env.onceFaulted({ resetRate: 1, resetMode: 'afterHandling' });
		await expect(sendTo(client, TO)).rejects.toBeInstanceOf(SmsLeopardConnectionError);
		const result = await sendTo(client, destination(2));
		expect(result.recipients[0].number).toBe(destination(2));
		expect(env.sandbox.state.sendCountByDestination).toEqual({ [TO]: 1, [destination(2)]: 1 });
	});
});

describe('contact create (not idempotent) whose connection is reset after handling', () => {
	it('fails once and creates the contact once', async () => {
		env.sandbox.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		const before = env.sandbox.state.contacts.length;
		const error = await caught<SmsLeopardConnectionError>(() =>
			env.client().createContact({ phoneNumber: '+254711000111', name: 'Reset Once' }),
		);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(error.requestSent).toBe(true);
		expect(env.sandbox.requests).toHaveLength(1);
		expect(env.sandbox.state.contacts).toHaveLength(before + 1);
	});
});

describe('reads under resets', () => {
	it('repeats sender and group reads until they succeed, with both kinds of reset', async () => {
		env.sandbox.setOptions({ resetRate: 0.4, resetMode: 'mixed' });
		const client = env.client();
		for (let i = 0; i < 15; i++) {
			const senders = await client.listSenderNumbers();
			expect(senders.map((s) => s.phone_number_id)).toContain(SENDER);
			const page = await client.getGroupsPage({ page: 1, per: 5 });
			expect(page.groups).toHaveLength(5);
		}
		const faults = env.sandbox.requests.map((r) => r.fault);
		expect(faults).toContain('resetBeforeHandling');
		expect(faults).toContain('resetAfterHandling');
		expect(env.sandbox.requests.filter((r) => r.status === 200)).toHaveLength(30);
	});

	it('reads every group exactly once across pages while connections keep dropping', async () => {
		env.sandbox.setOptions({ resetRate: 0.3, resetMode: 'mixed' });
		const groups = await env.client().getAllGroups({ per: 4 });
		expect(groups.map((g) => g.id)).toEqual(env.sandbox.state.groups.map((g) => g.id));
		expect(env.sandbox.requests.some((r) => r.fault !== undefined)).toBe(true);
	});

	it('gives up on a read after maxRetries with a connection error, in bounded requests', async () => {
		env.sandbox.setOptions({ resetRate: 1 });
		const error = await caught<SmsLeopardConnectionError>(() =>
			env.client({ retry: { maxRetries: 3 } }).listSenderNumbers(),
		);
		expect(error).toBeInstanceOf(SmsLeopardConnectionError);
		expect(env.sandbox.requests).toHaveLength(4);
	});
});

describe('idempotent writes under a reset after handling', () => {
	it('upload is repeated: the media id returned works, the lost one is an unused extra record', async () => {
		env.onceFaulted({ resetRate: 1, resetMode: 'afterHandling' });
		const media = await env.client().uploadMedia({
			phoneNumberId: SENDER,
			file: { data: Buffer.alloc(2048, 1), mimeType: 'image/png', fileName: 'a.png' },
		});
		expect(env.sandbox.state.media).toHaveLength(2);
		expect(env.sandbox.state.media[1].media_id).toBe(media.media_id);
	});

	it('delete is repeated: the contact is gone once; the repeat may only report it as not found', async () => {
		const client = env.client();
		const contact = await client.createContact({ phoneNumber: '+254711000222' });
		env.onceFaulted({ resetRate: 1, resetMode: 'afterHandling' });
		const outcome = await client.deleteContact(contact.id!).then(
			() => 'deleted',
			(error: unknown) => error,
		);
		// The first DELETE acted and its answer was lost; the retry finds nothing to delete. The
		// contact is gone either way; the client reports the 404 of the retry (typed, not a crash),
		// and says the call may have acted: an earlier attempt's "maybe" is never undone by a refusal.
		expect(outcome).toBeInstanceOf(SmsLeopardNotFoundError);
		expect((outcome as SmsLeopardNotFoundError).mayHaveBeenSent).toBe(true);
		expect(env.sandbox.state.contacts.find((c) => c.id === contact.id)).toBeUndefined();
		const deletes = env.sandbox.requests.filter((r) => r.method === 'DELETE');
		expect(deletes.map((r) => r.fault ?? r.status)).toEqual(['resetAfterHandling', 404]);
	});
});
