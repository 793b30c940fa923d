/**
 * The credential's Test button as n8n runs it: the node's credentialTest method (named by testedBy)
 * called with n8n-core's real CredentialTestContext (test/harness), whose only HTTP helper is n8n's legacy request
 * (axios underneath). Plain http:// to a non-loopback host is refused before anything is sent, and a
 * redirect is never followed, so no other address receives the key and secret.
 */
import type { ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import {
	REQUEST_HELPER_MISSING,
	testCredentialWithin,
} from '../../nodes/SmsLeopard/methods/credential-check';
import { type HostilePace, hostileServer } from '../support/hostile-server';
import { credentialTestContext } from '../harness';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	type RecordingServer,
	answerJson,
	redirectTo,
	startRecordingServer,
} from '../support/recording-server';

const node = new SmsLeopard();

async function testCredential(data: Record<string, string>): Promise<INodeCredentialTestResult> {
	const testedBy = node.description.credentials?.[0]?.testedBy;
	expect(testedBy).toBe('smsLeopardApiTest');
	const method = node.methods.credentialTest[testedBy as 'smsLeopardApiTest'];
	const credential: ICredentialsDecrypted = {
		id: '1',
		name: 'SMSLeopard',
		type: 'smsLeopardApi',
		data,
	};
	return await method.call(credentialTestContext(), credential);
}

let sandbox: Sandbox;
const servers: RecordingServer[] = [];
beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => {
	await sandbox.stop();
	await Promise.all(servers.map(async (server) => await server.stop()));
});

async function recorder(answer: Parameters<typeof startRecordingServer>[0]) {
	const server = await startRecordingServer(answer);
	servers.push(server);
	return server;
}

it('passes with the sandbox credential, after a real call to the contacts host', async () => {
	const before = sandbox.requests.length;
	const result = await testCredential({ ...sandbox.credentialData });
	expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
	expect(sandbox.requests.slice(before).map((request) => request.path)).toContain(
		'/v1/groups/fetch',
	);
});

it('says the key or secret was refused, without echoing the secret', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		apiSecret: 'wrong-secret-must-never-show-5521',
	});
	expect(result).toEqual({
		status: 'Error',
		message: 'The API key or secret was refused by SMSLeopard',
	});
});

it('refuses plain http:// to a non-loopback host before sending anything', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		contactsUrl: 'http://api.example.invalid',
	});
	expect(result.status).toBe('Error');
	expect(result.message).toContain("The credential's Contacts API URL uses plain http://");

	// 0.0.0.0 reaches this machine's loopback listener but is not a loopback name: the rule refuses
	// it, and the listener proves that no request (so no Authorization) arrived.
	const listener = await recorder(answerJson(200, { success: true, data: [] }));
	const viaAnyAddress = await testCredential({
		...sandbox.credentialData,
		contactsUrl: `http://0.0.0.0:${listener.port}`,
	});
	expect(viaAnyAddress.status).toBe('Error');
	expect(viaAnyAddress.message).toContain('plain http://');
	expect(listener.requests).toEqual([]);
});

it('refuses a plain http:// Chat API URL too, though the test only calls the contacts host', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		chatUrl: 'http://chat.example.invalid',
	});
	expect(result.status).toBe('Error');
	expect(result.message).toContain("The credential's Chat API URL uses plain http://");
});

it('does not follow a redirect to another origin: the other origin receives nothing', async () => {
	const elsewhere = await recorder(answerJson(200, { success: true, data: [] }));
	// localhost vs 127.0.0.1 and another port: a different origin.
	const redirecting = await recorder(redirectTo(`http://localhost:${elsewhere.port}`));
	const result = await testCredential({ ...sandbox.credentialData, contactsUrl: redirecting.url });
	expect(result.status).toBe('Error');
	expect(result.message).toContain('redirect (HTTP 302)');
	expect(redirecting.requests).toHaveLength(1);
	expect(elsewhere.requests).toEqual([]);
});

it('tells a host that does not answer from a refused key', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		contactsUrl: 'http://127.0.0.1:9',
	});
	expect(result).toEqual({
		status: 'Error',
		message: 'Could not connect to the Contacts API URL (ECONNREFUSED): check the URL',
	});
});

it("says so, sending nothing, when n8n's credential test context has no request helper", async () => {
	// n8n's real context with its one HTTP helper taken away, as an n8n version without it would be.
	const context = credentialTestContext();
	const { request: _removed, ...otherHelpers } = context.helpers;
	const listener = await recorder(answerJson(200, { success: true, data: [] }));
	const result = await testCredentialWithin.call(
		{ logger: context.logger, helpers: otherHelpers } as unknown as typeof context,
		{
			id: '1',
			name: 'SMSLeopard',
			type: 'smsLeopardApi',
			data: { ...sandbox.credentialData, contactsUrl: listener.url },
		},
		1000,
	);
	expect(result).toEqual({ status: 'Error', message: REQUEST_HELPER_MISSING });
	expect(listener.requests).toEqual([]);
});

describe('answers that do not end', () => {
	it('an endless answer stops past 10 MB, without reading it all, far within the time bound', async () => {
		const server = await hostileServer('flood');
		try {
			const started = Date.now();
			const result = await testCredential({ ...sandbox.credentialData, contactsUrl: server.url });
			expect(result.status).toBe('Error');
			expect(result.message).toContain('more than 10 MB');
			expect(server.state.written).toBeLessThan(100 * 1024 * 1024);
			expect(Date.now() - started).toBeLessThan(20_000);
		} finally {
			await server.close();
		}
	});

	// The real test allows 30 s; the same code with a 1 s bound, so each case ends in seconds.
	it.each<[HostilePace, string]>([
		['silent', 'headers that never come'],
		['slowHeaders', 'headers that drip'],
		['stall', 'a body that stops, the socket left open'],
		['cut', 'a body that stops mid-JSON'],
		['slowDrip', 'a body that drips a byte a second'],
	])('%s (%s) ends at the time bound, saying so', async (pace) => {
		const server = await hostileServer(pace);
		try {
			const started = Date.now();
			const result = await testCredentialWithin.call(
				credentialTestContext(),
				{
					id: '1',
					name: 'SMSLeopard',
					type: 'smsLeopardApi',
					data: { ...sandbox.credentialData, contactsUrl: server.url },
				},
				1000,
			);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/did not answer in full within 1 seconds|ETIMEDOUT/);
			expect(Date.now() - started).toBeLessThan(8000);
		} finally {
			await server.close();
		}
	});
});
