/**
 * The credential's "Test" button, through a real n8n's REST API: a good credential passes, a wrong
 * secret and a wrong URL fail with different messages, and no answer echoes the secret. Plain http://
 * to another host and a redirect to another origin never receive the key and secret (issue 10.10).
 */
import {
	type N8nServer,
	type UserFolder,
	packedForThisFile,
	prepareUserFolder,
	removeUserFolder,
	sharedServer,
	setUpOwner,
	signIn,
	startN8nServer,
} from './harness';
import { selectedVersions } from './matrix';
import { KEY_REFUSED } from '../../nodes/SmsLeopard/helpers/credential-test';
import { type Sandbox, startSandbox } from '../sandbox';
import {
	type RecordingServer,
	answerJson,
	redirectTo,
	startRecordingServer,
} from '../support/recording-server';

const tarball = packedForThisFile();

/**
 * Whether n8n shows a declarative test's own message for an error answer. In 1.123.81 and 2.8.4
 * n8n's error wrapping drops the answer before its CredentialsTester reads the rules, so it shows its
 * own words for the status; 2.41.1 shows the rule's (README "Credentials").
 */
function showsRuleMessages(version: string): boolean {
	const [major, minor] = version.split('.').map(Number);
	return major > 2 || (major === 2 && minor >= 41);
}

/** What n8n's CredentialsTester answers when it finds no test for a credential type. */
const NO_TEST_FOUND = 'No testing function found for this credential.';

describe.each(selectedVersions())('credential test in n8n %s', (version) => {
	let sandbox: Sandbox;
	let folder: UserFolder | undefined;
	let server: N8nServer | undefined;
	let url: string;
	let cookie: string;

	beforeAll(async () => {
		sandbox = await startSandbox();
		// The run's shared n8n (harness/shared-n8n.ts) when there is one: each test stores and tests
		// a credential of its own, for this file's sandbox.
		const shared = sharedServer(version);
		if (shared) {
			url = shared.server.url;
		} else {
			folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
			server = await startN8nServer(folder, { startTimeoutMs: 240_000 });
			url = server.url;
			await setUpOwner(url);
		}
		cookie = await signIn(url);
	}, 300_000);

	afterAll(async () => {
		await server?.stop();
		await sandbox?.stop();
		if (folder) removeUserFolder(folder);
	});

	async function rest<T>(path: string, body: unknown): Promise<T> {
		const response = await fetch(`${url}${path}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', cookie },
			body: JSON.stringify(body),
		});
		if (response.status !== 200)
			throw new Error(`HTTP ${response.status}: ${await response.text()}`);
		return ((await response.json()) as { data: T }).data;
	}

	/** What the editor does on "Save" then "Test": store the credential, then test it. */
	async function testCredential(
		data: Record<string, string>,
	): Promise<{ status: string; message: string }> {
		const credential = { name: `SMSLeopard ${Math.random()}`, type: 'smsLeopardApi', data };
		const { id } = await rest<{ id: string }>('/rest/credentials', credential);
		return await rest('/rest/credentials/test', { credentials: { id, ...credential } });
	}

	const good = () => ({ ...sandbox.credentialData });

	it('passes with the right key and secret, after a real call to the contacts host', async () => {
		const result = await testCredential(good());
		expect(result.status).toBe('OK');
		expect(
			sandbox.requests.some(
				(request) => request.path === '/v1/groups/fetch' && request.status === 200,
			),
		).toBe(true);
	});

	// The Test is the credential's declarative `test`, which n8n's CredentialsTester sends itself. The
	// day a version stops running declarative tests this fails saying so, where the other tests would
	// only see an unexpected message.
	it("runs the credential's declarative test", async () => {
		const result = await testCredential(good());
		if (result.message === NO_TEST_FOUND) {
			throw new Error(
				`n8n ${version} no longer runs a credential type's declarative test (SmsLeopardApi.credentials.ts test): the SMSLeopard Test needs n8n's new mechanism`,
			);
		}
		expect(result).toEqual({ status: 'OK', message: 'Connection successful!' });
	});

	it('tells a wrong secret from a wrong URL', async () => {
		const wrongSecret = await testCredential({
			...good(),
			apiSecret: 'wrong-secret-must-never-show-9931',
		});
		expect(wrongSecret).toEqual({
			status: 'Error',
			message: showsRuleMessages(version)
				? KEY_REFUSED
				: 'Authorization failed - please check your credentials',
		});
		expect(JSON.stringify(wrongSecret)).not.toContain('wrong-secret-must-never-show-9931');
		const wrongUrl = await testCredential({ ...good(), contactsUrl: 'http://127.0.0.1:9' });
		expect(wrongUrl.status).toBe('Error');
		expect(wrongUrl.message).not.toBe(wrongSecret.message);
		// What a person reads in the editor, for the README.
		console.log(
			`n8n ${version}: wrong secret -> "${wrongSecret.message}"; wrong URL -> "${wrongUrl.message}"`,
		);
	});
	describe('never sends the key and secret where they do not belong', () => {
		const servers: RecordingServer[] = [];
		afterAll(async () => await Promise.all(servers.map(async (s) => await s.stop())));
		async function recorder(answer: Parameters<typeof startRecordingServer>[0]) {
			const server = await startRecordingServer(answer);
			servers.push(server);
			return server;
		}

		it('refuses a plain http:// Contacts API URL before sending anything', async () => {
			const invalidHost = await testCredential({
				...good(),
				contactsUrl: 'http://api.example.invalid',
			});
			expect(invalidHost.status).toBe('Error');
			expect(invalidHost.message).toContain('uses plain http://');
			// 0.0.0.0 reaches the loopback listener but is not a loopback name: nothing may arrive.
			const listener = await recorder(answerJson(200, { success: true, data: [] }));
			const viaAnyAddress = await testCredential({
				...good(),
				contactsUrl: `http://0.0.0.0:${listener.port}`,
			});
			expect(viaAnyAddress.status).toBe('Error');
			expect(viaAnyAddress.message).toContain('uses plain http://');
			expect(listener.requests).toEqual([]);
		});

		it('does not follow a 302 to another origin with the key and secret', async () => {
			const elsewhere = await recorder(answerJson(200, { success: true, data: [] }));
			const redirecting = await recorder(redirectTo(`http://localhost:${elsewhere.port}`));
			const result = await testCredential({ ...good(), contactsUrl: redirecting.url });
			expect(result.status).toBe('Error');
			expect(result.message).toContain(
				showsRuleMessages(version) ? 'redirect (HTTP 302)' : 'status code 302',
			);
			expect(redirecting.requests.map((request) => request.hadAuthorization)).toEqual([true]);
			expect(elsewhere.requests).toEqual([]);
		});
	});
});
