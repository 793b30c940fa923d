/**
 * `npm run bench`: the node inside a real n8n (2.8.4 by default) against the sandbox on loopback,
 * side by side with n8n's HTTP Request node. Prints one table per benchmark with its goals and writes
 * the same figures to bench/results/latest.json (bench/results/subset.json for a BENCH_ONLY run).
 *
 *   BENCH_N8N_VERSION  n8n version (installed with scripts/n8n/install-n8n.sh), default 2.8.4
 *   BENCH_REPEATS      interleaved runs per variant of sends, limiters, scale and sms, default 5;
 *                      upload runs twice as many (BENCH_UPLOAD_REPEATS to choose), as one run's
 *                      peak memory varies by more than its goal
 *   BENCH_ONLY         comma-separated subset: sends,oneSend,oneSendQueue,limiters,scale,groups,upload,coldLoad,sms
 *   BENCH_ONE_SENDS    one-send executions per run of oneSend (default 500; one-send.ts)
 *   BENCH_LIMITERS     comma-separated subset of the limiter cases (see limiters.ts)
 *   BENCH_SENDS        sends per send benchmark (default 2000), BENCH_SCALE_SENDS (default 10000):
 *                      smaller for a quick check of the bench itself
 *   BENCH_SMS_COUNT    recipients of the sms benchmark, default 10000
 *   BENCH_SMS_NODE_ONE_BY_ONE=1  adds this node sending 1 SMS per request to the sms benchmark
 * A run with any of these narrowing it writes bench/results/subset.json, leaving latest.json whole.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { cpus, tmpdir, totalmem } from 'os';
import * as path from 'path';

import { type UserFolder, removeUserFolder, resolveN8n } from '../test/e2e/harness';
import { type Sandbox, startSandbox } from '../test/sandbox';
import { repeatsFromEnv } from './measure';
import { type ReplyServer, startReplyServer } from './reply-server';
import { benchColdLoad } from './cold-load';
import { benchGroups } from './groups';
import { type Section, printSection, writeJson } from './report';
import { benchLimiters } from './limiters';
import { benchOneSend, benchOneSendQueue } from './one-send';
import { SCALE_COUNT, benchScale } from './scale';
import { LATENCY_MS, SEND_COUNT, benchSends } from './sends';
import { prepareBenchFolder } from './setup';
import { SMS_COUNT, benchSms } from './sms';
import { smsWorkflows } from './sms-workflows';
import { logSince, selectedByBenchOnly } from './run-options';
import { FILE_NAME, benchUpload, writeBenchPdf } from './upload';
import { groupsWorkflow, scaleWorkflows, sendWorkflows, uploadWorkflows } from './workflows';

const BENCHMARKS = [
	'sends',
	'oneSend',
	'oneSendQueue',
	'limiters',
	'scale',
	'groups',
	'upload',
	'coldLoad',
	'sms',
] as const;
type BenchName = (typeof BENCHMARKS)[number];

// A subset (BENCH_ONLY) writes elsewhere, so the full run's figures quoted in the README stay whole.
const RESULTS_FILE = path.join(__dirname, 'results/latest.json');
const SUBSET_RESULTS_FILE = path.join(__dirname, 'results/subset.json');

const started = Date.now();
const log = logSince(started);
const selected = (): BenchName[] => selectedByBenchOnly(BENCHMARKS, (name) => name);

/** Temp folders and the sandbox, released on every way out, Ctrl-C included. */
const cleanup = {
	sandbox: undefined as Sandbox | undefined,
	server: undefined as ReplyServer | undefined,
	folder: undefined as UserFolder | undefined,
	tempDir: undefined as string | undefined,
	removeFiles(): void {
		if (this.folder) removeUserFolder(this.folder);
		if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
		this.folder = undefined;
		this.tempDir = undefined;
	},
};

async function main(): Promise<void> {
	const n8nVersion = process.env.BENCH_N8N_VERSION ?? '2.8.4';
	const repeats = repeatsFromEnv();
	const benchmarks = selected();
	const n8n = resolveN8n(n8nVersion);

	const sandbox = await startSandbox({ latencyMs: LATENCY_MS });
	cleanup.sandbox = sandbox;
	const tempDir = mkdtempSync(path.join(tmpdir(), 'smsleopard-bench-'));
	cleanup.tempDir = tempDir;
	log(`sandbox on ${sandbox.chatUrl} and ${sandbox.contactsUrl}`);
	// The timing benchmarks (sends, limiters, scale) meet the reply server, whose own cost per
	// request is negligible and measured; the sandbox serves what needs its behaviour.
	const server = await startReplyServer(sandbox);
	cleanup.server = server;
	log(`reply server on ${server.chatUrl} and ${server.contactsUrl}`);

	const sends = sendWorkflows(SEND_COUNT, server);
	const scale = scaleWorkflows(SEND_COUNT, SCALE_COUNT, server);
	const groups = groupsWorkflow();
	const sms = smsWorkflows(SMS_COUNT, server.contactsUrl);
	const uploads = uploadWorkflows(path.join(tempDir, FILE_NAME), sandbox.chatUrl, sandbox.channel);
	log(`packing the package and installing it into an n8n ${n8nVersion} user folder`);
	const folder = await prepareBenchFolder(n8nVersion, sandbox, server, [
		...Object.values(sends),
		...Object.values(scale).flatMap((size) => Object.values(size)),
		groups,
		...Object.values(uploads),
		...Object.values(sms),
	]);
	cleanup.folder = folder;
	const id = (workflow: { id?: string }) => String(workflow.id);
	const sendIds = {
		baseline: id(sends.baseline),
		nodeDefault: id(sends.nodeDefault),
		nodeConcurrency50: id(sends.nodeConcurrency50),
		bareSender: id(sends.bareSender),
		bareSenderSpaced: id(sends.bareSenderSpaced),
		bareSenderPastN8n: id(sends.bareSenderPastN8n),
		httpHeaderParameter: id(sends.httpHeaderParameter),
		httpHeaderAuth: id(sends.httpHeaderAuth),
		httpBasicAuth: id(sends.httpBasicAuth),
		httpHeaderAuthBatched: id(sends.httpHeaderAuthBatched),
	};

	const sections: Partial<Record<BenchName, Section>> = {};
	const show = (name: BenchName, section: Section) => {
		sections[name] = section;
		printSection(section);
	};
	console.log(
		`SMSLeopard node benchmarks: n8n ${n8nVersion} on Node ${process.version}, ` +
			`${cpus().length} CPU(s) ${cpus()[0]?.model ?? ''}, reply server and sandbox on loopback`,
	);
	for (const name of benchmarks) {
		switch (name) {
			case 'sends':
				show(name, await benchSends(folder, server, sendIds, repeats, log));
				break;
			case 'oneSend':
				show(name, await benchOneSend(folder, sandbox, server, repeats, log));
				break;
			case 'oneSendQueue':
				show(name, await benchOneSendQueue(sandbox, server, repeats, log));
				break;
			case 'limiters':
				show(
					name,
					await benchLimiters(
						folder,
						server,
						{
							nodeDefault: sendIds.nodeDefault,
							nodeKnownLimit: id(sends.nodeKnownLimit),
							httpRequestBest: id(sends.httpRequestBest),
						},
						repeats,
						log,
					),
				);
				break;
			case 'scale':
				show(
					name,
					await benchScale(
						folder,
						server,
						{
							small: {
								baseline: id(scale.small.baseline),
								outputLookalikes: id(scale.small.outputLookalikes),
								nodeDefault: id(scale.small.nodeDefault),
								httpRequest: id(scale.small.httpRequest),
							},
							large: {
								baseline: id(scale.large.baseline),
								outputLookalikes: id(scale.large.outputLookalikes),
								nodeDefault: id(scale.large.nodeDefault),
								httpRequest: id(scale.large.httpRequest),
							},
						},
						repeats,
						log,
					),
				);
				break;
			case 'groups':
				show(name, await benchGroups(folder, sandbox, id(groups), log));
				break;
			case 'upload': {
				log('upload: writing the 100 MB PDF');
				const file = writeBenchPdf(tempDir);
				try {
					show(
						name,
						await benchUpload(
							folder,
							sandbox,
							{
								readOnly: id(uploads.readOnly),
								nodeUpload: id(uploads.nodeUpload),
								httpUpload: id(uploads.httpUpload),
							},
							tempDir,
							log,
						),
					);
				} finally {
					rmSync(file, { force: true });
				}
				break;
			}
			case 'coldLoad':
				show(name, benchColdLoad(n8n.nodeBin, log));
				break;
			case 'sms':
				show(
					name,
					await benchSms(
						folder,
						server,
						{
							nodeBatched: id(sms.nodeBatched),
							nodeOneByOne: id(sms.nodeOneByOne),
							httpOneByOne: id(sms.httpOneByOne),
							httpBatched: id(sms.httpBatched),
						},
						repeats,
						log,
					),
				);
				break;
		}
	}

	const goals = Object.values(sections).flatMap((section) => section?.goals ?? []);
	const met = goals.filter((item) => item.pass).length;
	const totalSeconds = Math.round((Date.now() - started) / 1000);
	console.log(`\n${met} of ${goals.length} goals met; ${totalSeconds} s in all.`);
	const narrowed =
		benchmarks.length !== BENCHMARKS.length ||
		repeats < 5 ||
		[
			'BENCH_LIMITERS',
			'BENCH_SENDS',
			'BENCH_SCALE_SENDS',
			'BENCH_SMS_COUNT',
			'BENCH_UPLOAD_REPEATS',
			'BENCH_ONE_SENDS',
			'BENCH_ONE_SENDS_PACED',
		].some((name) => process.env[name]);
	const resultsFile = narrowed ? SUBSET_RESULTS_FILE : RESULTS_FILE;
	writeJson(resultsFile, {
		generatedAt: new Date().toISOString(),
		n8n: n8nVersion,
		commit: currentCommit(),
		repeats,
		node: process.version,
		machine: {
			cpus: cpus().length,
			cpuModel: cpus()[0]?.model,
			memoryMb: Math.round(totalmem() / 1024 / 1024),
		},
		totalSeconds,
		goalsMet: met,
		goalsTotal: goals.length,
		benchmarks: Object.fromEntries(
			Object.entries(sections).map(([name, section]) => [
				name,
				{ title: section.title, goals: section.goals, results: section.data },
			]),
		),
	});
	console.log(`Written to ${path.relative(process.cwd(), resultsFile)}.`);
}

/** The commit measured, marked when the work tree differs from it. */
function currentCommit(): string {
	try {
		const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
		const commit = git('rev-parse', 'HEAD');
		const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
		return dirty ? `${commit} (with uncommitted changes)` : commit;
	} catch {
		return 'unknown';
	}
}

process.once('SIGINT', () => {
	cleanup.removeFiles();
	process.exit(130);
});

main()
	.catch((error: unknown) => {
		console.error(error);
		process.exitCode = 1;
	})
	.finally(async () => {
		await cleanup.server?.stop();
		await cleanup.sandbox?.stop();
		cleanup.removeFiles();
	});
