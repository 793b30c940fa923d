/**
 * The credential's "Test" button, through a real n8n's REST API: a good credential passes, a wrong
 * secret and a wrong URL fail with different messages, and no answer echoes the secret.
 */
import {
	type N8nServer,
	type UserFolder,
	packPackage,
	removePackedTarball,
	prepareUserFolder,
	removeUserFolder,
	setUpOwner,
	signIn,
	startN8nServer,
} from './harness';
import { selectedVersions } from './matrix';
import { type Sandbox, startSandbox } from '../sandbox';

let tarball: string;
beforeAll(() => {
	tarball = packPackage();
}, 180_000);
afterAll(() => removePackedTarball(tarball));

describe.each(selectedVersions())('credential test in n8n %s', (version) => {
	let sandbox: Sandbox;
	let folder: UserFolder;
	let server: N8nServer;
	let cookie: string;

	beforeAll(async () => {
		sandbox = await startSandbox();
		folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball });
		server = await startN8nServer(folder);
		await setUpOwner(server.url);
		cookie = await signIn(server.url);
	}, 180_000);

	afterAll(async () => {
		await server?.stop();
		await sandbox?.stop();
		if (folder) removeUserFolder(folder);
	});

	async function rest<T>(path: string, body: unknown): Promise<T> {
		const response = await fetch(`${server.url}${path}`, {
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

	it('tells a wrong secret from a wrong URL', async () => {
		const wrongSecret = await testCredential({
			...good(),
			apiSecret: 'wrong-secret-must-never-show-9931',
		});
		expect(wrongSecret.status).toBe('Error');
		expect(JSON.stringify(wrongSecret)).not.toContain('wrong-secret-must-never-show-9931');
		const wrongUrl = await testCredential({ ...good(), contactsUrl: 'http://127.0.0.1:9' });
		expect(wrongUrl.status).toBe('Error');
		expect(wrongUrl.message).not.toBe(wrongSecret.message);
		// What a person reads in the editor, for the README.
		console.log(
			`n8n ${version}: wrong secret -> "${wrongSecret.message}"; wrong URL -> "${wrongUrl.message}"`,
		);
	});
});
