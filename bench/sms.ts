/**
 * Benchmark "sms": BENCH_SMS_COUNT recipients (default 10,000) against the sandbox with 20 ms of
 * latency: this node 100 per request and 1 per request, next to n8n's HTTP Request node one by one
 * and after a Code node grouped them 100 per request. Time is n8n's own execution time of the
 * sending node; requests are what the sandbox received; every recipient must be texted once.
 */
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { errorItemCount, executeMeasured, nodeTimeMs, outputItems, runFailure } from './measure';
import { type Section, goal, num } from './report';
import { LATENCY_MS } from './sends';
import { TARGET } from './workflows';

export const SMS_COUNT = Math.max(1, Number(process.env.BENCH_SMS_COUNT ?? 10_000) || 10_000);

export type SmsIds = Record<
	'nodeBatched' | 'nodeOneByOne' | 'httpOneByOne' | 'httpBatched',
	string
>;

interface SmsRun {
	label: string;
	ok: boolean;
	failure?: string;
	nodeMs: number;
	requests: number;
	texted: number;
	exactlyOnce: boolean;
	errorItems: number;
}

async function runOne(
	folder: UserFolder,
	sandbox: Sandbox,
	label: string,
	id: string,
): Promise<SmsRun> {
	sandbox.reset();
	sandbox.setOptions({ latencyMs: LATENCY_MS });
	const run = await executeMeasured(folder, id, { timeoutMs: 1_800_000 });
	const numbers = sandbox.state.smsMessages.map((message) => message.number);
	return {
		label,
		ok: run.ok,
		failure: run.ok ? undefined : runFailure(run),
		nodeMs: nodeTimeMs(run, TARGET),
		requests: sandbox.requests.filter((request) => request.path === '/v1/sms/send').length,
		texted: numbers.length,
		exactlyOnce: numbers.length === SMS_COUNT && new Set(numbers).size === SMS_COUNT,
		errorItems: errorItemCount(outputItems(run, TARGET)),
	};
}

export async function benchSms(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: SmsIds,
	log: (message: string) => void,
): Promise<Section> {
	const variants: Array<[string, string]> = [
		['SMSLeopard node, 100 per request (default)', ids.nodeBatched],
		['SMSLeopard node, 1 per request', ids.nodeOneByOne],
		['HTTP Request node, one by one', ids.httpOneByOne],
		['HTTP Request node, Code-node batches of 100', ids.httpBatched],
	];
	const runs: SmsRun[] = [];
	for (const [label, id] of variants) {
		log(`sms: ${label}, ${SMS_COUNT} recipients`);
		runs.push(await runOne(folder, sandbox, label, id));
	}
	const [batched, , httpOne] = runs;
	return {
		title: `SMS to ${SMS_COUNT} recipients`,
		notes: [
			`sandbox latency ${LATENCY_MS} ms per answer`,
			'time: n8n execution time of the sending node',
		],
		columns: [
			'variant',
			'node time (s)',
			'requests',
			'recipients texted',
			'each once',
			'error items',
		],
		rows: runs.map((run) => [
			run.label,
			num(run.nodeMs / 1000, 1),
			run.requests,
			run.texted,
			run.exactlyOnce ? 'yes' : 'NO',
			run.ok ? run.errorItems : `failed: ${run.failure ?? ''}`,
		]),
		goals: [
			goal(
				'the node sends every recipient exactly once, 100 per request',
				`${batched.texted} texted in ${batched.requests} requests`,
				batched.ok && batched.exactlyOnce && batched.requests === Math.ceil(SMS_COUNT / 100),
			),
			goal(
				'batched node at least 10x faster than HTTP Request one by one',
				`${num(batched.nodeMs / 1000, 1)} s vs ${num(httpOne.nodeMs / 1000, 1)} s`,
				batched.ok && httpOne.ok && batched.nodeMs * 10 <= httpOne.nodeMs,
			),
		],
		data: runs,
	};
}
