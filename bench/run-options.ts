/**
 * What bench runners do the same way: a log line with the seconds since they started, and the
 * environment a case's n8n processes get instead of the docs' settings (BENCH_WORKER_ENV,
 * BENCH_MAIN_ENV).
 */

/** Logs to stderr, dimmed, after the seconds since `started`. */
export function logSince(started: number): (message: string) => void {
	return (message) => {
		const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(5);
		process.stderr.write(`\u001b[2m${seconds} s  ${message}\u001b[0m\n`);
	};
}

/** BENCH_WORKER_ENV or BENCH_MAIN_ENV: a JSON object of strings, or undefined when unset. */
export function envOverride(
	name: 'BENCH_WORKER_ENV' | 'BENCH_MAIN_ENV',
): Record<string, string> | undefined {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return undefined;
	const value: unknown = JSON.parse(raw);
	if (
		typeof value !== 'object' ||
		value === null ||
		Array.isArray(value) ||
		Object.values(value).some((entry) => typeof entry !== 'string')
	) {
		throw new Error(`${name}: ${raw} is not a JSON object of strings`);
	}
	return value as Record<string, string>;
}
