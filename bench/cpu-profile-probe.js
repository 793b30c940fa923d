/**
 * Preloaded into `n8n execute` by `npm run bench:profile` (NODE_OPTIONS="--require <this>"; Node
 * refuses --cpu-prof in NODE_OPTIONS): starts V8's sampling profiler through the inspector in n8n's
 * main process and writes the profile to BENCH_CPU_PROFILE_FILE when the process exits.
 * Plain JavaScript, loaded by n8n's own Node before n8n: no TypeScript loader there.
 */
'use strict';
const { Session } = require('inspector');
const { writeFileSync } = require('fs');

const file = process.env.BENCH_CPU_PROFILE_FILE;
// Only n8n's main process (…/bin/n8n) records; its task runner is another process.
const isN8nMain = /[\\/]bin[\\/]n8n$/.test(process.argv[1] || '');

if (file && isN8nMain) {
	const session = new Session();
	session.connect();
	session.post('Profiler.enable');
	// 1 ms between samples, as --cpu-prof samples.
	session.post('Profiler.setSamplingInterval', { interval: 1000 });
	const stopMs = Number(process.env.BENCH_CPU_PROFILE_STOP_MS);
	if (stopMs > 0) {
		// A window of a long run (a queue-mode worker, which the bench SIGKILLs rather than lets
		// exit): from BENCH_CPU_PROFILE_START_MS to STOP_MS after start, one file per process.
		const startMs = Number(process.env.BENCH_CPU_PROFILE_START_MS) || 0;
		setTimeout(() => session.post('Profiler.start'), startMs).unref();
		setTimeout(() => {
			session.post('Profiler.stop', (error, result) => {
				if (!error)
					writeFileSync(`${file}.${process.pid}.cpuprofile`, JSON.stringify(result.profile));
			});
		}, stopMs).unref();
	} else {
		session.post('Profiler.start');
		// An in-process inspector session answers synchronously, so this completes inside 'exit'.
		process.on('exit', () => {
			session.post('Profiler.stop', (error, result) => {
				if (!error) writeFileSync(file, JSON.stringify(result.profile));
			});
		});
	}
}
