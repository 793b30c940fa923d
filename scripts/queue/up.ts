/**
 * npm run queue:up: packs the package and starts n8n 2.8.4 in queue mode (Postgres, Redis, a main
 * and two workers, each worker with the package installed in its own user folder), then leaves it
 * running and prints the editor URL and the owner's login. npm run queue:down stops everything.
 */
import { existsSync, mkdirSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { DEMO_OWNER, packPackage, setUpOwner } from '../../test/e2e/harness';
import { startQueueCluster, stopFromState } from '../../test/queue/cluster/queue-cluster';

const QUEUE_RUN_DIR = process.env.N8N_QUEUE_DIR ?? path.join(tmpdir(), 'n8n-smsleopard-queue');

async function main(): Promise<void> {
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
	});
	await setUpOwner(cluster.mainUrl);
	console.log(`n8n queue mode is up: ${cluster.mainUrl}`);
	console.log(`  sign in as ${DEMO_OWNER.email} / ${DEMO_OWNER.password}`);
	console.log(`  workers: ${cluster.workers.map((worker) => worker.url).join(', ')}`);
	console.log(
		`  Postgres 127.0.0.1:${cluster.postgres.port}, Redis 127.0.0.1:${cluster.redis.port}`,
	);
	console.log(`  logs and state: ${QUEUE_RUN_DIR}; stop with npm run queue:down`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
