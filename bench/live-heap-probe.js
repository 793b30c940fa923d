/**
 * Preloaded into `n8n execute` by the scale benchmark (NODE_OPTIONS="--expose-gc --require <this>"):
 * it forces a full garbage collection every BENCH_LIVE_HEAP_INTERVAL_MS (default 1,000) and at exit,
 * and writes the largest heap still in use after one, in MB, to BENCH_LIVE_HEAP_FILE.
 *
 * Why: peak RSS also counts garbage V8 has not collected yet. While the heap is far below its limit
 * V8 defers full collections, so a run that makes garbage (every HTTP request does) peaks higher the
 * longer it runs even when nothing is kept. Measured on the 10,000-send run: no full collection
 * between n8n's start and the end, the heap in use climbing from 117 to 309 MB, while the heap left
 * after a forced collection went from 120 to 124 MB. The live heap is what a node keeps.
 * Plain JavaScript, loaded by n8n's own Node before n8n: no TypeScript loader there.
 */
'use strict';
const { writeFileSync } = require('fs');

const file = process.env.BENCH_LIVE_HEAP_FILE;
const intervalMs = Number(process.env.BENCH_LIVE_HEAP_INTERVAL_MS) || 1000;
// Only n8n's main process (…/bin/n8n) records; its task runner is another process.
const isN8nMain = /[\\/]bin[\\/]n8n$/.test(process.argv[1] || '');

if (file && isN8nMain && typeof global.gc === 'function') {
	let largestMb = 0;
	const sample = () => {
		global.gc();
		const usedMb = process.memoryUsage().heapUsed / 1048576;
		if (usedMb > largestMb) {
			largestMb = usedMb;
			writeFileSync(file, `${largestMb.toFixed(2)}\n`);
		}
	};
	setInterval(sample, intervalMs).unref();
	process.on('exit', sample);
}
