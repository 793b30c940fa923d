/**
 * The credential's Test button as n8n runs it: the credential's declarative `test`, sent by n8n-core's
 * real RoutingNode through the credential's authenticate and n8n's HTTP helper (test/harness
 * runCredentialTest; the e2e suite runs n8n's own CredentialsTester). Plain http:// to a non-loopback
 * host is refused before anything is sent, and a redirect is never followed, so no other address
 * receives the key and secret.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { KEY_REFUSED } from '../../nodes/SmsLeopard/helpers/credential-test';
import { hostileServer } from '../support/hostile-server';
import { type CredentialTestResult, n8nKeepsErrorCause, runCredentialTest } from '../harness';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	type RecordingServer,
	answerJson,
	redirectTo,
	startRecordingServer,
} from '../support/recording-server';

const credentialType = new SmsLeopardApi();

/**
 * What the Test shows for an error answer: the credential's rule where n8n reads its rules
 * (n8n 2.41.1), else n8n's own words for the status (n8n 1.x and 2.8, this project's n8n-core).
 */
function shown(ruleMessage: string, n8nWords: string): string {
	return n8nKeepsErrorCause() ? ruleMessage : n8nWords;
}

async function testCredential(data: ICredentialDataDecryptedObject): Promise<CredentialTestResult> {
	return await runCredentialTest(credentialType, data);
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
	expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	expect(sandbox.requests.slice(before).map((request) => request.path)).toContain(
		'/v1/groups/fetch',
	);
});

it("is the credential's own declarative test: the node names no test method of its own", () => {
	// A node method's only HTTP helper is n8n's deprecated `request`, which n8n's checks refuse.
	expect(new SmsLeopard().description.credentials?.[0]?.testedBy).toBeUndefined();
	expect(credentialType.test.request.url).toBe('/v1/groups/fetch');
});

it('says the key or secret was refused, without echoing the secret', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		apiSecret: 'wrong-secret-must-never-show-5521',
	});
	expect(result).toEqual({
		status: 'Error',
		message: shown(KEY_REFUSED, 'Authorization failed - please check your credentials'),
	});
	expect(JSON.stringify(result)).not.toContain('wrong-secret-must-never-show-5521');
});

it.each([
	[401, 'Authorization failed - please check your credentials'],
	[403, 'Forbidden - perhaps check your credentials?'],
])('a %i answer is a refused key', async (status, n8nWords) => {
	const server = await recorder(answerJson(status, { success: false, message: 'no' }));
	const result = await testCredential({ ...sandbox.credentialData, contactsUrl: server.url });
	expect(result).toEqual({ status: 'Error', message: shown(KEY_REFUSED, n8nWords) });
});

it('a 200 answer with success false is a refused key too', async () => {
	const server = await recorder(answerJson(200, { success: false, message: 'Invalid key' }));
	const result = await testCredential({ ...sandbox.credentialData, contactsUrl: server.url });
	expect(result).toEqual({ status: 'Error', message: KEY_REFUSED });
});

it.each([
	[404, 'The resource you are requesting could not be found'],
	[500, 'The service was not able to process your request'],
])('a %i answer says to check the URL', async (status, n8nWords) => {
	const server = await recorder(answerJson(status, { error: 'x' }));
	const result = await testCredential({ ...sandbox.credentialData, contactsUrl: server.url });
	expect(result).toEqual({
		status: 'Error',
		message: shown(`The Contacts API URL answered HTTP ${status}: check the URL`, n8nWords),
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
	const listener = await recorder(answerJson(200, { success: true, data: [] }));
	const result = await testCredential({
		...sandbox.credentialData,
		contactsUrl: listener.url,
		chatUrl: 'http://chat.example.invalid',
	});
	expect(result.status).toBe('Error');
	expect(result.message).toContain("The credential's Chat API URL uses plain http://");
	expect(listener.requests).toEqual([]);
});

it.each([301, 302, 307, 308])(
	'does not follow a %i to another origin: the other origin receives nothing',
	async (status) => {
		const elsewhere = await recorder(answerJson(200, { success: true, data: [] }));
		// localhost vs 127.0.0.1 and another port: a different origin.
		const redirecting = await recorder(redirectTo(`http://localhost:${elsewhere.port}`, status));
		const result = await testCredential({
			...sandbox.credentialData,
			contactsUrl: redirecting.url,
		});
		expect(result).toEqual({
			status: 'Error',
			message: shown(
				`The Contacts API URL answered with a redirect (HTTP ${status}); it was not followed, so the key and secret went nowhere else. Set the Contacts API URL to the final https:// address`,
				`Request failed with status code ${status}`,
			),
		});
		expect(redirecting.requests).toHaveLength(1);
		expect(elsewhere.requests).toEqual([]);
	},
);

it('tells a host that does not answer from a refused key', async () => {
	const result = await testCredential({
		...sandbox.credentialData,
		contactsUrl: 'http://127.0.0.1:9',
	});
	expect(result).toEqual({
		status: 'Error',
		message: shown('ECONNREFUSED', 'The service refused the connection - perhaps it is offline'),
	});
});

// n8n gives a declarative test axios's timeout, which only ends a connection gone silent; the
// credential's authenticate bounds the whole answer (30 s) when n8n gives the request no signal.
it('an answer that drips a byte a second for ever ends at the 30 s bound', async () => {
	const server = await hostileServer('slowDrip');
	try {
		const result = await testCredential({ ...sandbox.credentialData, contactsUrl: server.url });
		expect(result.status).toBe('Error');
		expect(server.state.requests).toBe(1);
	} finally {
		await server.close();
	}
}, 45_000);
