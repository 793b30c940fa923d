/**
 * `npm run bench -- oneSend`: the most common WhatsApp automation, a webhook per sign-up,
 * each execution sending one template. `n8n start` on the bench's user folder, two workflows
 * activated on production webhooks (this node; n8n's HTTP Request node posting the same body with
 * a Basic Auth credential, the authentication this node uses), both answering when their last node
 * finished. Each run posts BENCH_ONE_SENDS (default 500) sign-ups, 10 in flight, against the reply
 * server at 20 ms, the two variants interleaved in a shuffled order per repeat. Measured per run:
 * the time, the requests the server received per send, and the CPU n8n's process tree used per
 * send (from /proc, so Linux only). Beside them: this node with Keep Listings 0, as every execution
 * listed before listings were kept (3 requests a send), and this node with Max Requests per Second
 * 10, which must still send at least 9 a second: kept listings no longer take the pacer's slots.
 *
 * `npm run bench -- oneSendQueue`: the same against test/queue's cluster (benchOneSendQueue below).
 */
import { readFileSync, readdirSync } from 'fs';

import {
	N8nRest,
	type UserFolder,
	packPackage,
	removePackedTarball,
	startN8nServer,
} from '../test/e2e/harness';
import { startQueueCluster } from '../test/queue/cluster/queue-cluster';
import { node, smsLeopard, locator, webhook, workflow } from '../test/e2e/workflows/build';
import type { WorkflowJson } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { inTurn } from './measure';
import type { ReplyServer } from './reply-server';
import { type Section, goal, num } from './report';
import { type Spread, compare, showSpread, spread } from './spread';
import { SENDER, TEMPLATE_ID } from './workflows';

export const ONE_SENDS = Number(process.env.BENCH_ONE_SENDS ?? 500);
/** Executions of the paced case: at 10 a second, about 10 s a run. */
const PACED_SENDS = Number(process.env.BENCH_ONE_SENDS_PACED ?? 100);
const IN_FLIGHT = 10;
const LATENCY_MS = 20;
const PACED_RATE = 10;

type Variant = 'node' | 'nodeKeepOff' | 'http' | 'nodePaced';

const LABELS: Record<Variant, string> = {
	node: 'SMSLeopard node, defaults (listings kept 60 s)',
	nodeKeepOff: 'SMSLeopard node, Keep Listings 0 (every execution lists, as before)',
	http: 'HTTP Request node, Basic Auth credential',
	nodePaced: `SMSLeopard node, Max Requests per Second ${PACED_RATE}`,
};

interface OneSendRun {
	seconds: number;
	requestsPerSend: number;
	cpuMsPerSend: number;
	sendsPerSecond: number;
	eachOnce: boolean;
	failedCalls: number;
}

/** User + system CPU (ms) of a process and all its descendants, from /proc. */
function treeCpuMs(root: number): number {
	const ticksPerSecond = 100; // USER_HZ on Linux
	const stats = new Map<number, { parent: number; ticks: number }>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
			// Fields after the command name (which may hold spaces) start after its closing ')'.
			const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
			stats.set(Number(entry), {
				parent: Number(fields[1]),
				ticks: Number(fields[11]) + Number(fields[12]),
			});
		} catch {
			// The process ended while the list was read.
		}
	}
	let ticks = 0;
	const inTree = (pid: number): boolean => {
		for (let at: number | undefined = pid; at && at > 1; at = stats.get(at)?.parent) {
			if (at === root) return true;
		}
		return false;
	};
	for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
	return (ticks * 1000) / ticksPerSecond;
}

function workflows(
	smsLeopardCredential: { id: string; name: string },
	basicCredential: { id: string; name: string },
	chatUrl: string,
	channel: string,
): Record<Variant, WorkflowJson> {
	const send = (requestOptions: Record<string, unknown>) =>
		smsLeopard('Send', smsLeopardCredential, {
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: locator(SENDER),
			template: locator(TEMPLATE_ID),
			destination: '={{ $json.body.phone }}',
			variablesMode: 'template',
			templateFields: { mappingMode: 'defineBelow', value: null },
			requestOptions,
		});
	const http = node(
		'Send',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${chatUrl}/v1/${channel}/send`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBasicAuth',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: `={{ JSON.stringify({ phone_number_id: '${SENDER}', template_id: '${TEMPLATE_ID}', destination: $json.body.phone, component_list: { components: [] } }) }}`,
			options: {},
		},
		{ credentials: { httpBasicAuth: basicCredential } },
	);
	const hooked = (path: string, target: ReturnType<typeof node>) =>
		workflow(`bench one-send ${path}`, [[webhook(path, 'lastNode'), target]]);
	return {
		node: hooked('one-send-node', send({})),
		nodeKeepOff: hooked('one-send-keep-off', send({ keepListings: 0 })),
		http: hooked('one-send-http', http),
		nodePaced: hooked('one-send-paced', send({ requestsPerSecond: PACED_RATE })),
	};
}

const PATHS: Record<Variant, string> = {
	node: 'one-send-node',
	nodeKeepOff: 'one-send-keep-off',
	http: 'one-send-http',
	nodePaced: 'one-send-paced',
};

/** `count` sign-ups posted `IN_FLIGHT` at a time, each waiting for its execution's end. */
async function signUps(
	url: string,
	path: string,
	count: number,
	prefix: string,
): Promise<{ failed: number }> {
	let next = 0;
	let failed = 0;
	const callers = Math.min(IN_FLIGHT, count);
	const caller = async () => {
		while (next < count) {
			const index = next++;
			const phone = `${prefix}${String(index).padStart(6, '0')}`;
			const answer = await fetch(`${url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ phone }),
			});
			await answer.arrayBuffer();
			if (answer.status !== 200) failed++;
		}
	};
	await Promise.all(Array.from({ length: callers }, caller));
	return { failed };
}

async function measure(
	target: Target,
	server: ReplyServer,
	variant: Variant,
	prefix: string,
): Promise<OneSendRun> {
	const count = variant === 'nodePaced' ? PACED_SENDS : ONE_SENDS;
	await server.reset({ latencyMs: LATENCY_MS });
	const cpu = () => target.pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
	const cpuBefore = cpu();
	const started = performance.now();
	const { failed } = await signUps(target.url, PATHS[variant], count, prefix);
	const seconds = (performance.now() - started) / 1000;
	const cpuMs = cpu() - cpuBefore;
	const stats = await server.stats();
	return {
		seconds,
		requestsPerSend: stats.sends ? stats.requests / stats.sends : Number.NaN,
		cpuMsPerSend: stats.sends ? cpuMs / stats.sends : Number.NaN,
		sendsPerSecond: stats.sends / seconds,
		eachOnce: stats.sends === count && stats.distinct === count && stats.doubles === 0,
		failedCalls: failed,
	};
}

/** Where the sign-ups go: n8n's main, and the processes whose CPU counts (main, workers). */
interface Target {
	url: string;
	pids: number[];
	mode: 'regular' | 'queue';
}

export async function benchOneSend(
	folder: UserFolder,
	sandbox: Sandbox,
	server: ReplyServer,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	log('oneSend: starting n8n (n8n start) on the bench folder');
	const n8n = await startN8nServer(folder, { startTimeoutMs: 240_000 });
	try {
		if (!n8n.pid) throw new Error('oneSend: n8n start has no pid');
		const target: Target = { url: n8n.url, pids: [n8n.pid], mode: 'regular' };
		return await measureOn(target, sandbox, server, repeats, log);
	} finally {
		await n8n.stop();
	}
}

/**
 * The same in queue mode (test/queue's cluster: Postgres, Redis, a main and two workers, n8n
 * 2.8.4): the main receives each webhook and queues it, a worker runs it; each worker keeps its own
 * listings. CPU is the main's and the workers' together.
 */
export async function benchOneSendQueue(
	sandbox: Sandbox,
	server: ReplyServer,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	log('oneSendQueue: packing the package and starting a main and two workers');
	const tarball = packPackage();
	const cluster = await startQueueCluster({ packageTarball: tarball, workers: 2 }).finally(() =>
		removePackedTarball(tarball),
	);
	try {
		const pids = [cluster.main, ...cluster.workers].map((entry) => entry.pid);
		if (pids.some((pid) => pid === undefined))
			throw new Error('oneSendQueue: a process has no pid');
		const target: Target = { url: cluster.mainUrl, pids: pids as number[], mode: 'queue' };
		return await measureOn(target, sandbox, server, repeats, log);
	} finally {
		cluster.stop();
	}
}

async function measureOn(
	target: Target,
	sandbox: Sandbox,
	server: ReplyServer,
	repeats: number,
	log: (message: string) => void,
): Promise<Section> {
	const rest = await N8nRest.owner(target.url);
	const { apiKey, apiSecret } = sandbox.credentials;
	const smsLeopardCredential = await rest.createCredential(
		'SMSLeopard one-send bench',
		'smsLeopardApi',
		{ ...sandbox.credentialData, chatUrl: server.chatUrl, contactsUrl: server.contactsUrl },
	);
	const basicCredential = await rest.createCredential('Basic one-send bench', 'httpBasicAuth', {
		user: apiKey,
		password: apiSecret,
	});
	for (const json of Object.values(
		workflows(smsLeopardCredential, basicCredential, server.chatUrl, sandbox.channel),
	)) {
		await rest.activateWorkflow(json);
	}
	// A few sign-ups each first, so n8n's first-call costs (loading the node, the first connection,
	// on each worker) fall outside the measured runs. The node's first listings happen here too; a
	// measured run lists again whenever a kept listing is older than its 60 s, and counts that.
	// Later n8n versions register a webhook a moment after activation: asked until it answers.
	for (const [index, variant] of (
		['http', 'node', 'nodeKeepOff', 'nodePaced'] as const
	).entries()) {
		const prefix = `+25479${index}`;
		for (let attempt = 0; (await signUps(target.url, PATHS[variant], 1, prefix)).failed;) {
			if (++attempt === 60) throw new Error(`oneSend: webhook ${PATHS[variant]} not registered`);
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		await signUps(target.url, PATHS[variant], IN_FLIGHT, prefix);
	}

	const runs: Record<Variant, OneSendRun[]> = {
		node: [],
		nodeKeepOff: [],
		http: [],
		nodePaced: [],
	};
	for (let repeat = 1; repeat <= repeats; repeat++) {
		for (const variant of inTurn(Object.keys(PATHS) as Variant[], repeat - 1)) {
			log(`oneSend (${target.mode} mode): ${LABELS[variant]}, run ${repeat}/${repeats}`);
			// Its own numbers per run (+254 7, repeat, variant, 6 digits): "each once" is per run.
			const prefix = `+2547${repeat % 10}${Object.keys(PATHS).indexOf(variant)}`;
			runs[variant].push(await measure(target, server, variant, prefix));
		}
	}
	return report(runs, repeats, target.mode);
}

function report(
	runs: Record<Variant, OneSendRun[]>,
	repeats: number,
	mode: Target['mode'],
): Section {
	const of = (variant: Variant, pick: (run: OneSendRun) => number): Spread =>
		spread(runs[variant].map(pick));
	const time = { node: of('node', (run) => run.seconds), http: of('http', (run) => run.seconds) };
	const cpu = {
		node: of('node', (run) => run.cpuMsPerSend),
		http: of('http', (run) => run.cpuMsPerSend),
	};
	const requests = of('node', (run) => run.requestsPerSend);
	const paced = of('nodePaced', (run) => run.sendsPerSecond);
	const timeRatio = time.node.median / time.http.median;
	const cpuRatio = cpu.node.median / cpu.http.median;
	const eachOnce = Object.values(runs).every((list) =>
		list.every((run) => run.eachOnce && run.failedCalls === 0),
	);
	const row = (variant: Variant) => {
		const list = runs[variant];
		const pick = (get: (run: OneSendRun) => number, digits: number) =>
			showSpread(spread(list.map(get)), digits);
		return [
			LABELS[variant],
			pick((run) => run.seconds, 2),
			pick((run) => run.sendsPerSecond, 1),
			pick((run) => run.requestsPerSend, 3),
			pick((run) => run.cpuMsPerSend, 1),
		];
	};
	return {
		title: `One-send executions (${mode} mode): ${ONE_SENDS} sign-ups through production webhooks, ${IN_FLIGHT} in flight, ${LATENCY_MS} ms latency`,
		notes: [
			mode === 'regular'
				? 'n8n start (one process)'
				: 'queue mode: a main queueing each webhook, two workers running them, each keeping its own listings; Max Requests per Second holds per worker, so two workers may send up to twice it',
			`webhooks answering when the last node finished; ${repeats} interleaved runs, median (min–max)`,
			`CPU: n8n's process trees (main, workers, task runners), from /proc, over the run; the paced row sends ${PACED_SENDS}`,
		],
		columns: ['Variant', 'time (s)', 'sends/s', 'requests/send', 'n8n CPU ms/send'],
		rows: [row('node'), row('nodeKeepOff'), row('http'), row('nodePaced')],
		goals: [
			goal('requests per send ≤ 1.05', showSpread(requests, 3), requests.max <= 1.05),
			goal(
				'time ≤ 1.15 × the HTTP Request node',
				`${num(timeRatio, 2)}× (${compare(time.node, time.http, 's')})`,
				timeRatio <= 1.15,
			),
			goal(
				"n8n CPU per send ≤ 1.2 × the HTTP Request node's",
				`${showSpread(cpu.node, 1)} ms vs ${showSpread(cpu.http, 1)} ms: ${num(cpuRatio, 2)}×`,
				cpuRatio <= 1.2,
			),
			goal(
				`Max Requests per Second ${PACED_RATE}: at least 9 sends/s`,
				showSpread(paced, 1),
				paced.median >= 9,
			),
			goal(
				'every run: each sign-up sent exactly once, no failed call',
				eachOnce ? 'yes' : 'NO',
				eachOnce,
			),
		],
		data: { runs, timeRatio, cpuRatio },
	};
}
