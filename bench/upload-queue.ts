/**
 * `npm run bench -- uploadQueue`: the 100 MB upload in queue mode's database binary mode (issue 26).
 * n8n 2.8.4 in queue mode (Postgres, Redis, a main and one worker, N8N_DEFAULT_BINARY_DATA_MODE
 * database, as test/queue runs it): a production webhook reads a 100 MB PDF from disk with
 * Read/Write Files, then (b) uploads it with Media > Upload, or (c) n8n's HTTP Request node uploads it
 * (multipart, Basic Auth credential); (a) only reads it. The worker runs all of them.
 *
 * A process keeps memory it freed, so a worker that already ran a 100 MB file shows no rise for the
 * next: every measured run has a fresh cluster, warmed up by the same workflow on a 1 KB file. The
 * worker's resident memory is read from /proc every 10 ms: a run's figure is its largest RSS during
 * the run less its RSS just before it. Runs alternate (a), (b), (c), BENCH_REPEATS times (default
 * 3); the figures are (b)'s and (c)'s median rise less (a)'s, with each one's spread.
 *
 *   BENCH_REPEATS (default 3, 1 to 10)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { N8nRest, packPackage, processMemoryKb, removePackedTarball } from '../test/e2e/harness';
import { webhook, workflow } from '../test/e2e/workflows/build';
import type { WorkflowJson } from '../test/e2e/harness';
import { startSandbox } from '../test/sandbox';
import { startQueueCluster } from '../test/queue/cluster/queue-cluster';
import { median, repeatsFromEnv } from './measure';
import { FILE_BYTES, NODE_RISE_GOAL_MB, writeBenchPdf } from './upload';
import { READ_NODE, httpMediaUpload, nodeMediaUpload, readFileNode } from './workflows';
import { showSpread, spread } from './spread';

const REPEATS = repeatsFromEnv(3);
const SAMPLE_MS = 10;

/** The process's resident memory in MB, from /proc (undefined once it is gone). */
function rssMb(pid: number): number | undefined {
	const kb = processMemoryKb(pid, 'VmRSS');
	return kb === undefined ? undefined : kb / 1024;
}

/** Largest RSS of `pid` while `run` runs, less its RSS just before. */
async function riseDuring(pid: number, run: () => Promise<void>): Promise<number> {
	const before = rssMb(pid) ?? Number.NaN;
	let peak = before;
	const timer = setInterval(() => {
		peak = Math.max(peak, rssMb(pid) ?? peak);
	}, SAMPLE_MS);
	try {
		await run();
	} finally {
		clearInterval(timer);
	}
	peak = Math.max(peak, rssMb(pid) ?? peak);
	return peak - before;
}

function workflows(
	credential: { id: string; name: string },
	basicAuth: { id: string; name: string },
	chatUrl: string,
	channel: string,
): Record<Variant, WorkflowJson> {
	const read = () => readFileNode('={{ $json.body.path }}');
	return {
		readOnly: workflow('bench: queue read only', [[webhook(HOOKS.readOnly, 'lastNode'), read()]]),
		nodeUpload: workflow('bench: queue read + upload', [
			[webhook(HOOKS.nodeUpload, 'lastNode'), read(), nodeMediaUpload(credential)],
		]),
		httpUpload: workflow('bench: queue read + HTTP Request upload', [
			[webhook(HOOKS.httpUpload, 'lastNode'), read(), httpMediaUpload(chatUrl, channel, basicAuth)],
		]),
	};
}

type Variant = 'readOnly' | 'nodeUpload' | 'httpUpload';
const HOOKS: Record<Variant, string> = {
	readOnly: 'bench-read-only',
	nodeUpload: 'bench-read-upload',
	httpUpload: 'bench-read-http-upload',
};
const VARIANTS: Variant[] = ['readOnly', 'nodeUpload', 'httpUpload'];

/**
 * One measured run on a fresh cluster: a worker that ran nothing yet, warmed up by the same
 * workflow on a 1 KB file (loading the nodes' code), then the 100 MB file.
 */
async function measuredRun(
	variant: Variant,
	files: { big: string; small: string; dir: string },
	tarball: string,
): Promise<number> {
	const sandbox = await startSandbox({ latencyMs: 20 });
	const cluster = await startQueueCluster({
		packageTarball: tarball,
		workers: 1,
		env: { N8N_RESTRICT_FILE_ACCESS_TO: files.dir },
	}).catch(async (error: unknown) => {
		await sandbox.stop();
		throw error;
	});
	try {
		const pid = cluster.workers[0].pid;
		if (pid === undefined) throw new Error('the worker has no pid');
		const rest = await N8nRest.owner(cluster.mainUrl);
		const credential = await rest.createCredential('SMSLeopard sandbox', 'smsLeopardApi', {
			...sandbox.credentialData,
		});
		const { apiKey, apiSecret } = sandbox.credentials;
		const basicAuth = await rest.createCredential('SMSLeopard basic', 'httpBasicAuth', {
			user: apiKey,
			password: apiSecret,
		});
		const id = await rest.activateWorkflow(
			workflows(credential, basicAuth, sandbox.chatUrl, sandbox.channel)[variant],
		);
		let runs = 0;
		const post = async (file: string, bytes: number) => {
			sandbox.reset();
			const response = await fetch(`${cluster.mainUrl}/webhook/${HOOKS[variant]}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ path: file }),
			});
			const text = await response.text();
			if (!response.ok)
				throw new Error(`${variant}: HTTP ${response.status} ${text.slice(0, 300)}`);
			const media = sandbox.state.media;
			if (variant !== 'readOnly' && (media.length !== 1 || media[0].file_size !== bytes)) {
				throw new Error(`${variant}: the sandbox stored ${media.length} media`);
			}
			// The run read the file on the worker, into the database: its execution says so.
			const [last] = await rest.settledExecutions(id, ++runs);
			const detail = await rest.execution(last.id);
			const read = detail.runData[READ_NODE]?.[0]?.data?.main?.[0]?.[0] as
				{ binary?: { data?: { id?: string } } } | undefined;
			if (detail.status !== 'success' || !read?.binary?.data?.id?.startsWith('database')) {
				throw new Error(
					`${variant}: execution ${last.id} ${detail.status}, read ${JSON.stringify(read?.binary?.data ?? null)}`,
				);
			}
		};
		await post(files.small, SMALL_BYTES);
		return await riseDuring(pid, () => post(files.big, FILE_BYTES));
	} finally {
		cluster.stop();
		await sandbox.stop();
	}
}

const SMALL_BYTES = 1024;

async function main(): Promise<void> {
	const dir = mkdtempSync(path.join(tmpdir(), 'smsleopard-upload-queue-'));
	const big = writeBenchPdf(dir);
	const small = path.join(dir, 'small.pdf');
	writeFileSync(
		small,
		Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(SMALL_BYTES - 9, 32)]),
	);
	const tarball = packPackage();
	try {
		const rises: Record<Variant, number[]> = { readOnly: [], nodeUpload: [], httpUpload: [] };
		for (let repeat = 1; repeat <= REPEATS; repeat++) {
			for (const variant of VARIANTS) {
				rises[variant].push(await measuredRun(variant, { big, small, dir }, tarball));
			}
			console.log(
				`run ${repeat}/${REPEATS}: ${VARIANTS.map((variant) => `${variant} +${rises[variant].at(-1)?.toFixed(1)} MB`).join(', ')}`,
			);
		}
		const extra = median(rises.nodeUpload) - median(rises.readOnly);
		console.log(
			`\n100 MB upload, queue mode, database binary mode (Postgres), n8n 2.8.4, a fresh worker per run, ${REPEATS} run(s) each:`,
		);
		console.log(`  worker RSS rise, read only:     ${showSpread(spread(rises.readOnly), 1)} MB`);
		console.log(`  worker RSS rise, read + upload: ${showSpread(spread(rises.nodeUpload), 1)} MB`);
		console.log(
			`  worker RSS rise, read + HTTP Request multipart: ${showSpread(spread(rises.httpUpload), 1)} MB (over the read: ${(median(rises.httpUpload) - median(rises.readOnly)).toFixed(1)} MB)`,
		);
		console.log(
			`  the upload's rise over the read (medians): ${extra.toFixed(1)} MB (goal ≤ ${NODE_RISE_GOAL_MB} MB): ${extra <= NODE_RISE_GOAL_MB ? 'met' : 'MISSED'}`,
		);
	} finally {
		removePackedTarball(tarball);
		rmSync(dir, { recursive: true, force: true });
	}
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
