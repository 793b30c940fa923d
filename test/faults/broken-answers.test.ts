// Success statuses with bodies the client cannot use: JSON cut in half (the server acted) and a
// proxy's HTML login page (the server never saw the request). Both are response errors, never a
// crash, and neither makes the client send again.
import { SmsLeopardNotFoundError, SmsLeopardResponseError } from '../../nodes/SmsLeopard/client';
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
import { TEMPLATES } from '../sandbox';

let env: FaultEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

const TO = destination(3);

describe('truncated JSON (malformedJsonRate)', () => {
	it.each([
		['default retries', {}],
		['retryUnsafe', { retryUnsafe: true, maxRetries: 3 }],
	])(
		'on a send (%s): a response error, the message sent once, never again',
		async (_label, retry) => {
			env.sandbox.setOptions({ malformedJsonRate: 1 });
			const error = await caught<SmsLeopardResponseError>(() => sendTo(env.client({ retry }), TO));
			expect(error).toBeInstanceOf(SmsLeopardResponseError);
			expect(error.status).toBe(200);
			expect(error.issues).toEqual([{ field: '', message: 'is not JSON' }]);
			expect(String(error.body)).toMatch(/^\{"recipients":\[/);
			expect(error.message).toContain(`Send template '${TEMPLATES.flow.id}' to ${TO}:`);
			expect(sendCount(env.sandbox, TO)).toBe(1);
			expect(sendAttempts(env.sandbox)).toHaveLength(1);
		},
	);

	it('on a contact create: a response error, the contact created once', async () => {
		env.sandbox.setOptions({ malformedJsonRate: 1 });
		const before = env.sandbox.state.contacts.length;
		await expect(
			env.client().createContact({ phoneNumber: '+254711000333' }),
		).rejects.toBeInstanceOf(SmsLeopardResponseError);
		expect(env.sandbox.state.contacts).toHaveLength(before + 1);
		expect(env.sandbox.requests).toHaveLength(1);
	});

	it('on reads and uploads: a response error, in a bounded number of requests', async () => {
		env.sandbox.setOptions({ malformedJsonRate: 1 });
		const client = env.client({ retry: { maxRetries: 2 } });
		await expect(client.listSenderNumbers()).rejects.toBeInstanceOf(SmsLeopardResponseError);
		await expect(client.getGroupsPage()).rejects.toBeInstanceOf(SmsLeopardResponseError);
		await expect(
			client.uploadMedia({
				phoneNumberId: SENDER,
				file: { data: Buffer.alloc(64, 3), mimeType: 'image/jpeg', fileName: 'p.jpg' },
			}),
		).rejects.toBeInstanceOf(SmsLeopardResponseError);
		expect(env.sandbox.requests.length).toBeLessThanOrEqual(9);
	});

	it('on an error answer: still the typed API error of its status, with the raw text', async () => {
		env.sandbox.setOptions({ malformedJsonRate: 1 });
		const error = await caught<SmsLeopardNotFoundError>(() => env.client().listTemplates(999));
		expect(error).toBeInstanceOf(SmsLeopardNotFoundError);
		expect(error.status).toBe(404);
		expect(error.apiMessage).toMatch(/^\{"error_code":"not_found"/);
	});

	it('a later good answer is read normally by the same client', async () => {
		const client = env.client();
		env.onceFaulted({ malformedJsonRate: 1 });
		await expect(sendTo(client, TO)).rejects.toBeInstanceOf(SmsLeopardResponseError);
		const result = await sendTo(client, destination(4));
		expect(result.recipients).toHaveLength(1);
		expect(env.sandbox.state.sendCountByDestination).toEqual({ [TO]: 1, [destination(4)]: 1 });
	});
});

describe('an HTML page with status 200 (wrongContentTypeRate)', () => {
	it('on a send: a response error pointing at the hosts, nothing sent, not repeated', async () => {
		env.sandbox.setOptions({ wrongContentTypeRate: 1 });
		const error = await caught<SmsLeopardResponseError>(() =>
			sendTo(env.client({ retry: { retryUnsafe: true } }), TO),
		);
		expect(error).toBeInstanceOf(SmsLeopardResponseError);
		expect(error.status).toBe(200);
		expect(String(error.body)).toMatch(/^<!DOCTYPE html>/);
		expect(error.message).toMatch(/Check that the credential points at the SMSLeopard API hosts/);
		expect(sendCount(env.sandbox, TO)).toBe(0);
		expect(sendAttempts(env.sandbox)).toHaveLength(1);
	});

	it('on reads, uploads and contacts: a response error, nothing created', async () => {
		env.sandbox.setOptions({ wrongContentTypeRate: 1 });
		const client = env.client();
		const contacts = env.sandbox.state.contacts.length;
		for (const run of [
			() => client.listSenderNumbers(),
			() => client.getAllGroups(),
			() => client.createContact({ phoneNumber: '+254711000444' }),
			() =>
				client.uploadMedia({
					phoneNumberId: SENDER,
					file: { data: Buffer.alloc(64, 4), mimeType: 'video/mp4', fileName: 'v.mp4' },
				}),
		]) {
			await expect(run()).rejects.toBeInstanceOf(SmsLeopardResponseError);
		}
		expect(env.sandbox.state.contacts).toHaveLength(contacts);
		expect(env.sandbox.state.media).toHaveLength(0);
		expect(env.sandbox.requests).toHaveLength(4);
	});
});
