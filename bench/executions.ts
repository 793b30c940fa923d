/**
 * `npm run bench -- executions`: many executions, one account, in regular mode. One `n8n start`
 * (2.8.4 by default) with the packed package runs 10 executions of 200 template sends each, posted
 * at once to a production webhook, against the sandbox limited to 100 requests/s under each limiter
 * model; the queue-mode counterpart is in `npm run test:queue`. Prints, per model, the time beside
 * the ideal 2,000 / 100 = 20 s (goal: within 1.2x), the 429s, failed items and double sends, as
 * median (min–max) over BENCH_REPEATS interleaved runs (default 3).
 *
 *   BENCH_N8N_VERSION (default 2.8.4), BENCH_REPEATS (default 3)
 */
import {
	N8nRest,
	nodeItems,
	packPackage,
	prepareUserFolder,
	removePackedTarball,
	removeUserFolder,
	startN8nServer,
} from '../test/e2e/harness';
import { bulkSendWorkflow } from '../test/queue/workflows';
import { type SandboxOptions, startSandbox } from '../test/sandbox';
import { repeatsFromEnv } from './measure';
import { showSpread, spread } from './spread';

const EXECUTIONS = 10;
const SENDS_EACH = 200;
const LIMIT = 100;
const IDEAL_S = (EXECUTIONS * SENDS_EACH) / LIMIT;

const LIMITERS: Array<[string, Partial<SandboxOptions>]> = [
	['sliding 1 s window', { rateLimitModel: 'sliding' }],
	['token bucket, burst 20', { rateLimitModel: 'tokenBucket', rateLimitBurst: 20 }],
	[
		'quota of 1,000 per 10 s window',
		{ rateLimitModel: 'perMinute', rateLimitQuotaWindowMs: 10_000 },
	],
];

interface Run {
	seconds: number;
	refused: number;
	failed: number;
	doubles: number;
	sent: number;
}

async function main(): Promise<void> {
	const version = process.env.BENCH_N8N_VERSION ?? '2.8.4';
	const repeats = repeatsFromEnv(3);
	const sandbox = await startSandbox({ latencyMs: 20 });
	const tarball = packPackage();
	const folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball });
	removePackedTarball(tarball);
	const server = await startN8nServer(folder, { startTimeoutMs: 240_000 });
	try {
		const rest = await N8nRest.owner(server.url);
		const credential = await rest.createCredential('SMSLeopard bench', 'smsLeopardApi', {
			...sandbox.credentialData,
		});
		const runs = new Map<string, Run[]>();
		for (let repeat = 1; repeat <= repeats; repeat++) {
			for (const [index, [label, limiter]] of LIMITERS.entries()) {
				process.stderr.write(`executions: ${label}, run ${repeat}/${repeats}\n`);
				// A workflow per run, so its 10 executions are all it has.
				const path = `bench-many-${repeat}-${index}`;
				const id = await rest.activateWorkflow(bulkSendWorkflow(credential, path));
				sandbox.reset();
				sandbox.setOptions({ rateLimitPerSecond: LIMIT, ...limiter });
				const started = Date.now();
				await Promise.all(
					Array.from({ length: EXECUTIONS }, async (_, run) => {
						const answer = await fetch(`${server.url}/webhook/${path}`, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify({ prefix: `+25474${run}0`, count: SENDS_EACH }),
						});
						await answer.arrayBuffer();
					}),
				);
				const seconds = (Date.now() - started) / 1000;
				const executions = await rest.settledExecutions(id, EXECUTIONS);
				let failed = 0;
				for (const execution of executions) {
					if (execution.status !== 'success') failed += SENDS_EACH;
					else {
						const { runData } = await rest.execution(execution.id);
						failed += nodeItems(runData, 'Send').filter((item) => item.error !== undefined).length;
					}
				}
				const counts = Object.values(sandbox.state.sendCountByDestination);
				(runs.get(label) ?? runs.set(label, []).get(label)!).push({
					seconds,
					refused: sandbox.requests.filter((request) => request.status === 429).length,
					failed,
					doubles: counts.filter((count) => count > 1).length,
					sent: counts.length,
				});
			}
		}
		console.log(
			`\n10 executions x 200 sends at once, one n8n ${version} (regular mode), account limited to ${LIMIT} requests/s; ` +
				`median (min–max) of ${repeats} run(s); ideal ${IDEAL_S} s, goal within 1.2x`,
		);
		for (const [label, list] of runs) {
			const seconds = spread(list.map((run) => run.seconds));
			console.log(
				`  ${label}: ${showSpread(seconds)} s (${(seconds.median / IDEAL_S).toFixed(2)}x ideal, ` +
					`${(seconds.max / IDEAL_S).toFixed(2)}x at worst), 429s ${showSpread(spread(list.map((run) => run.refused)), 0)}, ` +
					`failed ${Math.max(...list.map((run) => run.failed))}, sent twice ${Math.max(...list.map((run) => run.doubles))}, ` +
					`recipients sent ${Math.min(...list.map((run) => run.sent))} of ${EXECUTIONS * SENDS_EACH} at least`,
			);
		}
	} finally {
		await server.stop();
		await sandbox.stop();
		removeUserFolder(folder);
	}
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
