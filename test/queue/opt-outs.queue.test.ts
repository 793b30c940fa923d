/**
 * The opt-out example in queue mode (Postgres, a main and two workers): replies that arrive at once
 * run on both workers, and the table must still hold one row per number. n8n's upsert is an
 * update, then an insert when nothing was updated, in one transaction; Postgres does not serialize
 * two of them, so this is where two first STOPs from one number could each insert.
 */
import { N8nRest, packPackage, removePackedTarball } from '../e2e/harness';
import { EXAMPLE_CREDENTIAL_NAME } from '../e2e/workflows/examples';
import { type Sandbox, startSandbox } from '../sandbox';
import { activateReplyWorkflow } from './campaign/delivery-reports';
import { itShowingLogs } from './cluster/show-logs-on-failure';
import { type QueueCluster, startQueueCluster } from './cluster/queue-cluster';

const SECRET = 'opt-out-webhook-secret-queue-3e8a';
let tarball: string;
let sandbox: Sandbox;
let cluster: QueueCluster;
const it = itShowingLogs(() => cluster);
let rest: N8nRest;
let url: string;

beforeAll(async () => {
	tarball = packPackage();
	sandbox = await startSandbox({});
	cluster = await startQueueCluster({ packageTarball: tarball });
	rest = await N8nRest.owner(cluster.mainUrl);
	const credential = await rest.createCredential(EXAMPLE_CREDENTIAL_NAME, 'smsLeopardApi', {
		...sandbox.credentialData,
		webhookSecret: SECRET,
	});
	url = await activateReplyWorkflow(rest, credential, cluster.mainUrl);
}, 600_000);

afterAll(async () => {
	cluster?.stop();
	await sandbox?.stop();
	removePackedTarball(tarball);
});

async function rows(): Promise<Array<{ phone: string; status: string }>> {
	const projectId = await rest.personalProjectId();
	const tables = await rest.call<{ data: Array<{ id: string; name: string }> }>(
		'GET',
		`/rest/projects/${projectId}/data-tables?take=100`,
	);
	const table = tables.data.find((entry) => entry.name === 'smsleopard_opt_outs');
	if (!table) return [];
	return (
		await rest.call<{ data: Array<{ phone: string; status: string }> }>(
			'GET',
			`/rest/projects/${projectId}/data-tables/${table.id}/rows?take=1000`,
		)
	).data;
}

const reply = (from: string, message: string, id: string) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-status-secret': SECRET },
		body: JSON.stringify({ id, from, message }),
	});

it('five first STOPs from each of ten numbers at once, on two workers: one row per number', async () => {
	// The table first, so the race is the upsert's alone.
	expect((await reply('+254712000900', 'STOP', 'warm-up')).status).toBe(200);
	for (let wait = 0; wait < 100 && (await rows()).length === 0; wait++)
		await new Promise((resolve) => setTimeout(resolve, 300));
	const numbers = Array.from({ length: 10 }, (_, index) => `+2547120009${String(10 + index)}`);
	const posts = numbers.flatMap((number) =>
		Array.from({ length: 5 }, (_, copy) => reply(number, 'Stop', `${number}-${copy}`)),
	);
	expect(new Set((await Promise.all(posts)).map((answer) => answer.status))).toEqual(
		new Set([200]),
	);
	const deadline = Date.now() + 120_000;
	let found = await rows();
	while (Date.now() < deadline && numbers.some((n) => !found.some((row) => row.phone === n))) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		found = await rows();
	}
	await new Promise((resolve) => setTimeout(resolve, 5000));
	found = await rows();
	const perNumber = numbers.map((number) => found.filter((row) => row.phone === number).length);
	expect(perNumber).toEqual(numbers.map(() => 1));
});
