/** Where npm run queue:up keeps its run (logs, state, n8n.env): N8N_QUEUE_DIR or a fixed temp folder. */
import { tmpdir } from 'os';
import * as path from 'path';

export const QUEUE_RUN_DIR =
	process.env.N8N_QUEUE_DIR ?? path.join(tmpdir(), 'n8n-smsleopard-queue');
