/**
 * The cases that run the packed package inside one real n8n (2.8.4 by default) against the sandbox
 * and the reply server on loopback, side by side with n8n's HTTP Request node: sends, oneSend,
 * oneSendQueue, limiters, scale, groups, upload, coldLoad, sms. They share one set-up (servers, one
 * n8n user folder holding the workflows of the cases asked for). Run by bench/run.ts.
 *
 *   BENCH_N8N_VERSION  n8n version (installed with scripts/n8n/install-n8n.sh), default 2.8.4
 *   BENCH_REPEATS      interleaved runs per variant of sends, limiters, scale and sms, default 5;
 *                      upload runs twice as many (BENCH_UPLOAD_REPEATS to choose), as one run's
 *                      peak memory varies by more than its goal
 *   BENCH_ONE_SENDS    one-send executions per run of oneSend (default 500; one-send.ts)
 *   BENCH_LIMITERS     comma-separated subset of the limiter cases (see limiters.ts)
 *   BENCH_SENDS        sends per send benchmark (default 2000), BENCH_SCALE_SENDS (default 10000):
 *                      smaller for a quick check of the bench itself
 *   BENCH_SMS_COUNT    recipients of the sms benchmark, default 10000
 *   BENCH_SMS_NODE_ONE_BY_ONE=1  adds this node sending 1 SMS per request to the sms benchmark
 */
import { mkdtempSync, rmSync } from 'fs';
import { cpus, tmpdir } from 'os';
import * as path from 'path';

import { type UserFolder, removeUserFolder, resolveN8n } from '../test/e2e/harness';
import { type Sandbox, startSandbox } from '../test/sandbox';
import { repeatsFromEnv } from './measure';
import { type ReplyServer, startReplyServer } from './reply-server';
import { benchColdLoad } from './cold-load';
import { benchGroups } from './groups';
import { type Section, printSection } from './report';
import { benchLimiters } from './limiters';
import { benchOneSend, benchOneSendQueue } from './one-send';
import { SCALE_COUNT, benchScale } from './scale';
import { LATENCY_MS, SEND_COUNT, benchSends } from './sends';
import { prepareBenchFolder } from './setup';
import { SMS_COUNT, benchSms } from './sms';
import { smsWorkflows } from './sms-workflows';
import { logSince } from './run-options';
import { FILE_NAME, benchUpload, writeBenchPdf } from './upload';
import { groupsWorkflow, scaleWorkflows, sendWorkflows, uploadWorkflows } from './workflows';

export const NODE_CASES = [
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
type BenchName = (typeof NODE_CASES)[number];

/** What a run of these cases measured, for bench/run.ts to write down. */
export interface NodeCasesRun {
	sections: Partial<Record<BenchName, Section>>;
	n8nVersion: string;
	repeats: number;
	/** Any of the narrowing settings above was set: the figures are not the defaults'. */
	narrowed: boolean;
}

const started = Date.now();
const log = logSince(started);

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

/** Runs the named cases in one n8n set-up; the caller writes their figures down. */
export async function run(names: string[]): Promise<NodeCasesRun> {
	try {
		return await runCases(NODE_CASES.filter((name) => names.includes(name)));
	} finally {
		await cleanup.server?.stop();
		await cleanup.sandbox?.stop();
		cleanup.removeFiles();
	}
}

async function runCases(benchmarks: BenchName[]): Promise<NodeCasesRun> {
	const n8nVersion = process.env.BENCH_N8N_VERSION ?? '2.8.4';
	const repeats = repeatsFromEnv();
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

	const narrowed =
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
	return { sections, n8nVersion, repeats, narrowed };
}

process.once('SIGINT', () => {
	cleanup.removeFiles();
	process.exit(130);
});
