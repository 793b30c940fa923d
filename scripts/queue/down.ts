/**
 * npm run queue:down: stops what npm run queue:up and queue:worker started (from state.json) and any
 * n8n started by hand from the run's n8n.env, then removes the run.
 */
import { rmSync } from 'fs';
import * as path from 'path';

import { stopFromState } from '../../test/queue/cluster/queue-cluster';
import { QUEUE_RUN_DIR } from './run-folder';

const state = stopFromState(path.join(QUEUE_RUN_DIR, 'state.json'));
rmSync(QUEUE_RUN_DIR, { recursive: true, force: true });
console.log(state ? `stopped n8n queue mode at ${state.mainUrl}` : 'nothing was running');
