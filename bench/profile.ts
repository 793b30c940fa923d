/**
 * `npm run bench -- profile`: where a send's CPU goes. Runs 2,000 template sends by this node (50 in
 * parallel) and by n8n's HTTP Request node (key typed into a header parameter, all at once) in a
 * real n8n under V8's sampling profiler (cpu-profile-probe.js), against the reply server, and prints:
 * - the CPU spent inside each sender per send: samples whose stack holds a frame of the sender's
 *   own code (this package's dist/, or n8n's HttpRequest node), everything it called included;
 * - the functions with the most self time within those samples, by package.
 *
 *   BENCH_N8N_VERSION (default 2.8.4), BENCH_SENDS (default 2000), BENCH_PROFILE_RUNS (default 3)
 *   BENCH_PROFILE_CASE=sms: instead, BENCH_SMS_COUNT SMS (default 10,000) by this node, 100 per
 *   request, against the HTTP Request node after a Code node grouped them 100 per request (the
 *   Code node runs in n8n's task runner, another process: its CPU is not in these figures).
 * The .cpuprofile files stay in the printed folder for Chrome DevTools (Performance > Load profile).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { removeUserFolder, resolveN8n } from '../test/e2e/harness';
import { startSandbox } from '../test/sandbox';
import { executeMeasured, median, nodeTimeMs, runFailure } from './measure';
import { type ReplyServer, startReplyServer } from './reply-server';
import type { WorkflowJson } from '../test/e2e/harness';
import { LATENCY_MS, SEND_COUNT } from './sends';
import { prepareBenchFolder } from './setup';
import { SMS_COUNT } from './sms';
import { smsWorkflows } from './sms-workflows';
import { TARGET, sendWorkflows } from './workflows';

/**
 * Template sends with the node at 50 in parallel (the default), at its defaults (10 in parallel:
 * BENCH_PROFILE_CASE=defaults), or SMS (BENCH_PROFILE_CASE=sms).
 */
const SMS_CASE = process.env.BENCH_PROFILE_CASE === 'sms';
const DEFAULTS_CASE = process.env.BENCH_PROFILE_CASE === 'defaults';
const COUNT = SMS_CASE ? SMS_COUNT : SEND_COUNT;

interface ProfileNode {
	id: number;
	callFrame: { functionName: string; url: string; lineNumber: number };
	children?: number[];
}
interface CpuProfile {
	nodes: ProfileNode[];
	samples: number[];
	timeDeltas: number[];
}

const PROBE = path.join(__dirname, 'cpu-profile-probe.js');

/** Which frames are the sender's own code. */
const SENDERS = {
	node: (url: string) => url.includes('/n8n-nodes-smsleopard/dist/'),
	http: (url: string) => url.includes('/nodes/HttpRequest/'),
} as const;

/** The package a frame belongs to (the innermost node_modules folder), for grouping self time. */
function packageOf(url: string): string {
	if (!url) return '(native)';
	if (url.startsWith('node:')) return 'node';
	const packages = [...url.matchAll(/node_modules\/((?:@[^/]+\/)?[^/]+)/g)];
	return packages.length ? packages[packages.length - 1][1] : path.basename(url);
}

interface Analysis {
	/** CPU (ms) of samples inside the sender. */
	insideMs: number;
	/** All non-idle CPU (ms) of the process. */
	totalMs: number;
	/** Self time (ms) within the sender's samples, by "function (package)". */
	selfByFunction: Map<string, number>;
	selfByPackage: Map<string, number>;
	/** Time (ms) of samples with this function of the sender's own code on the stack. */
	inclusiveBySenderFunction: Map<string, number>;
	/** CPU (ms) of module loading under the sender (its first require()s): left out of insideMs. */
	loadingMs: number;
}

function analyse(profile: CpuProfile, isSender: (url: string) => boolean): Analysis {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const parent = new Map<number, number>();
	for (const node of profile.nodes)
		for (const child of node.children ?? []) parent.set(child, node.id);
	const insideCache = new Map<number, boolean>();
	const inside = (id: number): boolean => {
		const known = insideCache.get(id);
		if (known !== undefined) return known;
		const node = byId.get(id);
		const up = parent.get(id);
		const result = node ? isSender(node.callFrame.url) || (up !== undefined && inside(up)) : false;
		insideCache.set(id, result);
		return result;
	};
	const analysis: Analysis = {
		insideMs: 0,
		totalMs: 0,
		selfByFunction: new Map(),
		selfByPackage: new Map(),
		inclusiveBySenderFunction: new Map(),
		loadingMs: 0,
	};
	const stackOf = (id: number): ProfileNode[] => {
		const stack: ProfileNode[] = [];
		for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
			const node = byId.get(at);
			if (node) stack.push(node);
		}
		return stack;
	};
	profile.samples.forEach((id, index) => {
		const ms = (profile.timeDeltas[index] ?? 0) / 1000;
		const node = byId.get(id);
		const name = node?.callFrame.functionName ?? '';
		// Idle and V8's own bookkeeping are nobody's work; garbage collection is counted.
		if (name === '(idle)' || name === '(program)') return;
		analysis.totalMs += ms;
		if (!inside(id) || !node) return;
		const stack = stackOf(id);
		// A sender's first run loads its modules (the HTTP Request node's, lazily): start-up, not sends.
		if (stack.some((frame) => frame.callFrame.url === 'node:internal/modules/cjs/loader')) {
			analysis.loadingMs += ms;
			return;
		}
		analysis.insideMs += ms;
		const own = new Set(
			stack
				.filter((frame) => isSender(frame.callFrame.url))
				.map(
					(frame) =>
						`${frame.callFrame.functionName || '(anonymous)'} ${path.basename(frame.callFrame.url)}:${frame.callFrame.lineNumber + 1}`,
				),
		);
		for (const name of own) {
			analysis.inclusiveBySenderFunction.set(
				name,
				(analysis.inclusiveBySenderFunction.get(name) ?? 0) + ms,
			);
		}
		const pkg = packageOf(node.callFrame.url);
		const fn = `${node.callFrame.functionName || '(anonymous)'} (${pkg})`;
		analysis.selfByFunction.set(fn, (analysis.selfByFunction.get(fn) ?? 0) + ms);
		analysis.selfByPackage.set(pkg, (analysis.selfByPackage.get(pkg) ?? 0) + ms);
	});
	return analysis;
}

/** The main n8n process's profile: the one that ran the workflow (the task runner writes one too). */
function mainProfile(dir: string): CpuProfile {
	const profiles = readdirSync(dir)
		.filter((file) => file.endsWith('.cpuprofile'))
		.map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile);
	const ran = profiles.filter((profile) =>
		profile.nodes.some((node) => node.callFrame.functionName === 'processRunExecutionData'),
	);
	if (ran.length !== 1)
		throw new Error(`expected one profile of the run in ${dir}, found ${ran.length}`);
	return ran[0];
}

const top = (map: Map<string, number>, count: number) =>
	[...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);

const perSend = (ms: number) => ((ms * 1000) / COUNT).toFixed(0);

function report(
	label: string,
	inside: number[],
	nodeSeconds: number[],
	last: Analysis | undefined,
): void {
	const sorted = [...inside].sort((a, b) => a - b);
	const time = nodeSeconds.length ? `, node time ${median(nodeSeconds).toFixed(2)} s` : '';
	console.log(
		`\n${label}: ${perSend(median(inside))} µs per send (${perSend(sorted[0])}–${perSend(sorted[sorted.length - 1])})${time}`,
	);
	if (!last) return;
	console.log('  self time by package (last run):');
	for (const [pkg, ms] of top(last.selfByPackage, 8)) {
		console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${pkg}`);
	}
	console.log('  top functions by self time (last run):');
	for (const [fn, ms] of top(last.selfByFunction, 12)) {
		console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${fn}`);
	}
	console.log("  the sender's own functions, time with them on the stack (last run):");
	for (const [fn, ms] of top(last.inclusiveBySenderFunction, 25)) {
		console.log(`    ${ms.toFixed(0).padStart(6)} ms  ${fn}`);
	}
	console.log(`  module loading left out: ${last.loadingMs.toFixed(0)} ms`);
}

/**
 * `bench -- profile <folder>`: the saved profiles of an earlier run, analysed again. Per-send figures
 * divide by the run's count: set BENCH_PROFILE_CASE (and BENCH_SENDS or BENCH_SMS_COUNT) as for it.
 */
function reanalyse(root: string): void {
	for (const key of ['node', 'http'] as const) {
		const dirs = readdirSync(root).filter((dir) => dir.startsWith(`${key}-`));
		const analyses = dirs.map((dir) => analyse(mainProfile(path.join(root, dir)), SENDERS[key]));
		if (analyses.length === 0) continue;
		report(
			key,
			analyses.map((analysis) => analysis.insideMs),
			[],
			analyses[analyses.length - 1],
		);
	}
}

interface Variant {
	key: keyof typeof SENDERS;
	label: string;
	workflow: WorkflowJson;
}

function templateVariants(server: ReplyServer): Variant[] {
	const sends = sendWorkflows(SEND_COUNT, server);
	return [
		{
			key: 'node',
			label: `SMSLeopard node, ${DEFAULTS_CASE ? 'defaults (10 in parallel)' : '50 in parallel'}`,
			workflow: DEFAULTS_CASE ? sends.nodeDefault : sends.nodeConcurrency50,
		},
		{
			key: 'http',
			label: 'HTTP Request, key typed into a header parameter',
			workflow: sends.httpHeaderParameter,
		},
	];
}

function smsVariants(server: ReplyServer): Variant[] {
	// The send alone: the benchmark's delivery-report and balance nodes would be counted as ours.
	const sms = smsWorkflows(SMS_COUNT, server.contactsUrl, { sendOnly: true });
	return [
		{ key: 'node', label: 'SMSLeopard node, SMS 100 per request', workflow: sms.nodeBatched },
		{
			key: 'http',
			label: 'HTTP Request, after Code-node batches of 100',
			workflow: sms.httpBatched,
		},
	];
}

async function main(args: string[] = []): Promise<void> {
	if (args[0]) return reanalyse(args[0]);
	const n8nVersion = process.env.BENCH_N8N_VERSION ?? '2.8.4';
	const runs = Math.max(1, Math.min(10, Number(process.env.BENCH_PROFILE_RUNS ?? 3) || 3));
	resolveN8n(n8nVersion);
	const sandbox = await startSandbox({ latencyMs: LATENCY_MS });
	const server = await startReplyServer(sandbox).catch(async (error: unknown) => {
		await sandbox.stop();
		throw error;
	});
	const stopServers = async () => {
		await server.stop();
		await sandbox.stop();
	};
	const variants = SMS_CASE ? smsVariants(server) : templateVariants(server);
	const folder = await prepareBenchFolder(
		n8nVersion,
		sandbox,
		server,
		variants.map((variant) => variant.workflow),
	).catch(async (error: unknown) => {
		await stopServers();
		throw error;
	});
	const root = mkdtempSync(path.join(tmpdir(), 'smsleopard-profile-'));
	try {
		console.log(
			`CPU inside each sender, ${COUNT.toLocaleString('en')} ${SMS_CASE ? 'SMS' : 'sends'}, n8n ${n8nVersion}, ${runs} run(s) each; profiles in ${root}`,
		);
		for (const variant of variants) {
			const inside: number[] = [];
			const nodeSeconds: number[] = [];
			let last: Analysis | undefined;
			for (let run = 1; run <= runs; run++) {
				const dir = path.join(root, `${variant.key}-${run}`);
				mkdirSync(dir);
				await server.reset({ latencyMs: LATENCY_MS });
				const measured = await executeMeasured(folder, String(variant.workflow.id), {
					env: {
						NODE_OPTIONS: `--require ${PROBE}`,
						BENCH_CPU_PROFILE_FILE: path.join(dir, 'n8n.cpuprofile'),
					},
				});
				if (!measured.ok)
					throw new Error(`${variant.label}: the run failed: ${runFailure(measured)}`);
				const stats = await server.stats();
				if (stats.sends !== COUNT) throw new Error(`${variant.label}: ${stats.sends} sends`);
				last = analyse(mainProfile(dir), SENDERS[variant.key]);
				inside.push(last.insideMs);
				nodeSeconds.push(nodeTimeMs(measured, TARGET) / 1000);
			}
			report(variant.label, inside, nodeSeconds, last);
		}
	} finally {
		removeUserFolder(folder);
		await stopServers();
	}
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
