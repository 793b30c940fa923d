/**
 * npm run queue:up: packs the package and starts n8n 2.8.4 in queue mode (Postgres, Redis, a main
 * and workers, each worker with the package installed in its own user folder), then leaves it
 * running and prints the editor URL, the owner's login and what a restart needs.
 * `-- --campaign` starts the workers as a campaign wants them (see scripts/queue/up-options.ts).
 * npm run queue:worker adds or restarts a worker; npm run queue:down stops everything.
 */
import { existsSync, mkdirSync } from 'fs';
import * as path from 'path';

import { DEMO_OWNER, packPackage, setUpOwner } from '../../test/e2e/harness';
import {
	ENV_FILE,
	shellQuoted,
	startQueueCluster,
	stopFromState,
} from '../../test/queue/cluster/queue-cluster';
import { QUEUE_RUN_DIR } from './run-folder';
import { parseUpOptions } from './up-options';

async function main(): Promise<void> {
	const options = parseUpOptions(process.argv.slice(2));
	const stateFile = path.join(QUEUE_RUN_DIR, 'state.json');
	if (existsSync(stateFile)) {
		// A previous queue:up still recorded: stop it first rather than run two.
		stopFromState(stateFile);
	}
	mkdirSync(QUEUE_RUN_DIR, { recursive: true });
	const tarball = packPackage();
	const cluster = await startQueueCluster({
		packageTarball: tarball,
		runDir: QUEUE_RUN_DIR,
		keepRunning: true,
		workers: options.workers,
		workerConcurrency: options.workerConcurrency,
		workerEnv: options.workerEnv,
		mainEnv: options.mainEnv,
	});
	await setUpOwner(cluster.mainUrl);
	// As a shell takes them: a value a shell would split (NODE_OPTIONS with two flags) in quotes.
	const settings = (env: Record<string, string>) =>
		Object.entries(env)
			.map(([key, value]) => `${key}=${/[^\w@%+=:,./-]/.test(value) ? shellQuoted(value) : value}`)
			.join(' ');
	const memory = settings(options.workerEnv);
	const envFile = path.join(QUEUE_RUN_DIR, ENV_FILE);
	console.log(`n8n queue mode is up: ${cluster.mainUrl}`);
	console.log(`  sign in as ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`);
	console.log(
		`  ${cluster.workers.length} workers at --concurrency=${options.workerConcurrency}` +
			(memory ? `, ${memory}` : '') +
			(options.campaign ? ' (the campaign set-up)' : ''),
	);
	if (Object.keys(options.mainEnv).length > 0)
		console.log(`  the main: ${settings(options.mainEnv)}`);
	console.log(`  workers' health: ${cluster.workers.map((worker) => worker.url).join(', ')}`);
	console.log(
		`  Postgres 127.0.0.1:${cluster.postgres.port} database n8n user postgres, ` +
			`Redis 127.0.0.1:${cluster.redis.port}`,
	);
	console.log(
		`  a restart needs the same N8N_ENCRYPTION_KEY, database and Redis: all in ${envFile}`,
	);
	console.log(
		`    npm run queue:worker                  one more worker (or one in place of a stopped one)`,
	);
	console.log(`    set -a; . ${envFile}; n8n worker      one by hand; queue:down stops it too`);
	console.log(`  logs and state: ${QUEUE_RUN_DIR}; stop everything with npm run queue:down`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
