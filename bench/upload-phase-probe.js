/**
 * Preloaded into `n8n execute` by the upload benchmark (NODE_OPTIONS="--require <this>"): samples the
 * main process's resident memory every 10 ms and writes to BENCH_UPLOAD_PHASE_FILE, as JSON, the
 * largest RSS before the stored file was first opened for reading (n8n's start, the Read node, and
 * loading the uploading node) and the largest from then on (the upload), in MB.
 *
 * Why: the peak of one run less the peak of another varies by ±10 MB between identical runs (heap
 * sizing at start-up differs from process to process), more than the 5 MB the upload may add. Inside
 * one process the upload's own rise is measured against that same process's peak before it. The
 * stored file is opened with fs.createReadStream (n8n's filesystem binary-data manager), by this
 * node and by the HTTP Request node alike; the Read node writes it and never opens it for reading.
 * Plain JavaScript, loaded by n8n's own Node before n8n: no TypeScript loader there.
 */
'use strict';
const fs = require('fs');

const file = process.env.BENCH_UPLOAD_PHASE_FILE;
// Only n8n's main process (…/bin/n8n) records; its task runner is another process.
const isN8nMain = /[\\/]bin[\\/]n8n$/.test(process.argv[1] || '');

if (file && isN8nMain) {
	const started = Date.now();
	let beforeMb = 0;
	let duringMb = 0;
	let openedAtMs;
	let opens = 0;
	const sample = () => {
		const rssMb = process.memoryUsage.rss() / 1048576;
		if (openedAtMs === undefined) beforeMb = Math.max(beforeMb, rssMb);
		else duringMb = Math.max(duringMb, rssMb);
	};
	const createReadStream = fs.createReadStream;
	fs.createReadStream = function (path, ...rest) {
		if (/[\\/]binary_data[\\/]/.test(String(path))) {
			sample();
			opens++;
			if (openedAtMs === undefined) openedAtMs = Date.now() - started;
		}
		return createReadStream.call(this, path, ...rest);
	};
	setInterval(sample, 10).unref();
	process.on('exit', () => {
		sample();
		const round = (value) => Number(value.toFixed(1));
		fs.writeFileSync(
			file,
			JSON.stringify({
				beforeMb: round(beforeMb),
				duringMb: round(duringMb),
				openedAtMs: openedAtMs ?? null,
				opens,
			}),
		);
	});
}
