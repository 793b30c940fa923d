// Prints what the end-to-end suite's n8n commands cost (from E2E_RUN_LOG, written by
// test/e2e/harness/n8n-process.ts): per command, how many, their total and median time, the
// slowest five, and any run killed because n8n did not exit after its output was complete.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2];
if (!file || !existsSync(file)) {
	console.log(`no e2e run log at ${file}`);
	process.exit(0);
}
const runs = readFileSync(file, 'utf8')
	.split('\n')
	.filter(Boolean)
	.map((line) => {
		const [, command, time, exit, test] = line.split('\t');
		return { command, ms: Number.parseInt(time, 10), exit, test };
	});
const byCommand = new Map();
for (const run of runs) byCommand.set(run.command, [...(byCommand.get(run.command) ?? []), run]);
for (const [command, list] of byCommand) {
	const times = list.map((run) => run.ms).sort((a, b) => a - b);
	const total = times.reduce((sum, ms) => sum + ms, 0);
	const median = times[Math.floor(times.length / 2)];
	console.log(
		`n8n ${command}: ${list.length} runs, ${(total / 1000).toFixed(0)} s in all, median ${(median / 1000).toFixed(1)} s`,
	);
}
console.log('slowest:');
for (const run of [...runs].sort((a, b) => b.ms - a.ms).slice(0, 5)) {
	console.log(`  ${(run.ms / 1000).toFixed(1)} s  n8n ${run.command}  ${run.exit}  ${run.test}`);
}
const killed = runs.filter((run) => run.exit.includes('killed'));
console.log(
	`killed after complete output (n8n hung on exit, or a signal ended it): ${killed.length}`,
);
