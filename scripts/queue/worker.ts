/**
 * npm run queue:worker [-- NAME]: starts one more worker into the run npm run queue:up started, with
 * its worker settings (concurrency, memory), e.g. in place of one that stopped. queue:down stops it.
 */
import { addWorkerToRun } from '../../test/queue/cluster/queue-cluster';
import { QUEUE_RUN_DIR } from './run-folder';

addWorkerToRun(QUEUE_RUN_DIR, process.argv[2])
	.then((worker) => {
		console.log(
			`${worker.name} is up (pid ${worker.pid}, health ${worker.url}, log ${worker.log})`,
		);
	})
	.catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	});
