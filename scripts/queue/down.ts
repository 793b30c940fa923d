/** npm run queue:down: stops what npm run queue:up started (from its state.json) and removes it. */
import { rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

import { stopFromState } from '../../test/queue/cluster/queue-cluster';

const runDir = process.env.N8N_QUEUE_DIR ?? path.join(tmpdir(), 'n8n-smsleopard-queue');
const state = stopFromState(path.join(runDir, 'state.json'));
rmSync(runDir, { recursive: true, force: true });
console.log(state ? `stopped n8n queue mode at ${state.mainUrl}` : 'nothing was running');
