/**
 * One `n8n execute` with live-heap-probe.js preloaded: the largest heap n8n's main process still
 * held after a forced full garbage collection (once a second and at exit). A separate run from the
 * timed ones, because the forced collections cost time and lower the peak RSS they would report.
 */
import { readFileSync, rmSync } from 'fs';
import * as path from 'path';

import type { UserFolder } from '../test/e2e/harness';
import { executeMeasured, runFailure } from './measure';

const PROBE = path.join(__dirname, 'live-heap-probe.js');

let runCounter = 0;

export interface LiveHeapRun {
	ok: boolean;
	failure?: string;
	/** Largest heap in use after a full collection, MB; NaN if the probe wrote nothing. */
	liveHeapMb: number;
}

export async function executeLiveHeap(
	folder: UserFolder,
	workflowId: string,
	timeoutMs = 300_000,
): Promise<LiveHeapRun> {
	const file = path.join(folder.root, `live-heap-${process.pid}-${++runCounter}.txt`);
	rmSync(file, { force: true });
	const run = await executeMeasured(folder, workflowId, {
		timeoutMs,
		env: {
			// Quoted: NODE_OPTIONS splits on spaces, and a clone's path may have some.
			NODE_OPTIONS: `--expose-gc --require "${PROBE}"`,
			BENCH_LIVE_HEAP_FILE: file,
		},
	});
	let liveHeapMb = Number.NaN;
	try {
		liveHeapMb = Number(readFileSync(file, 'utf8').trim());
	} catch {
		// No file: the probe did not load (reported below as a failed run).
	}
	rmSync(file, { force: true });
	const loaded = Number.isFinite(liveHeapMb);
	return {
		ok: run.ok && loaded,
		failure: !run.ok ? runFailure(run) : loaded ? undefined : 'the live-heap probe wrote nothing',
		liveHeapMb,
	};
}
