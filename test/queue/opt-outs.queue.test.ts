/**
 * The opt-out example in queue mode (Postgres, a main and two workers): replies that arrive at once
 * run on both workers, and the table must still hold one row per number, the one of the number's
 * latest message by its own time. Each reply inserts a row and then removes the rows of older
 * messages after reading the number's rows (Postgres gives ids before commit, so this is where the
 * order of steps is least like arrival).
 */
import { N8nRest, packedTarball, removeOwnTarball } from '../e2e/harness';
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
	tarball = packedTarball();
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
	removeOwnTarball(tarball);
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

const reply = (from: string, message: string, id: string, time?: string) =>
	fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-status-secret': SECRET },
		body: JSON.stringify({ id, from, message, ...(time ? { time } : {}) }),
	});

/** The rows once every post was answered 200, each number has a row and 5 s more have passed. */
async function rowsOnceAnswered(posts: Array<Promise<Response>>, numbers: string[]) {
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
	return await rows();
}

it('five first STOPs from each of ten numbers at once, on two workers: one row per number', async () => {
	// The table first, so the race is the rows' alone.
	expect((await reply('+254712000900', 'STOP', 'warm-up')).status).toBe(200);
	for (let wait = 0; wait < 100 && (await rows()).length === 0; wait++)
		await new Promise((resolve) => setTimeout(resolve, 300));
	const numbers = Array.from({ length: 10 }, (_, index) => `+2547120009${String(10 + index)}`);
	const posts = numbers.flatMap((number) =>
		Array.from({ length: 5 }, (_, copy) => reply(number, 'Stop', `${number}-${copy}`)),
	);
	const found = await rowsOnceAnswered(posts, numbers);
	const perNumber = numbers.map((number) => found.filter((row) => row.phone === number).length);
	expect(perNumber).toEqual(numbers.map(() => 1));
});

it('a STOP and a START of ten numbers posted at once, each pair in either order: every row ends with the later message by its time', async () => {
	const numbers = Array.from({ length: 10 }, (_, index) => `+2547120008${String(10 + index)}`);
	// Even numbers: START sent last (posted first); odd numbers: STOP sent last (posted first).
	const posts = numbers.flatMap((number, index) => {
		const startLater = index % 2 === 0;
		const [startAt, stopAt] = startLater
			? ['2026-11-29T10:00:02Z', '2026-11-29T10:00:01Z']
			: ['2026-11-29T10:00:01Z', '2026-11-29T10:00:02Z'];
		const later = startLater ? ['START', startAt] : ['STOP', stopAt];
		const earlier = startLater ? ['STOP', stopAt] : ['START', startAt];
		return [
			reply(number, later[0], `${number}-later`, later[1]),
			reply(number, earlier[0], `${number}-earlier`, earlier[1]),
		];
	});
	const found = await rowsOnceAnswered(posts, numbers);
	expect(
		numbers.map((number) => found.filter((row) => row.phone === number).map((row) => row.status)),
	).toEqual(numbers.map((_, index) => [index % 2 === 0 ? 'opted in' : 'opted out']));
});
