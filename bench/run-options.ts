/**
 * What every bench runner reads the same way: a log line with the seconds since it started, and
 * BENCH_ONLY (a comma-separated subset of its runs, an unknown name refused with the known ones).
 */

/** Logs to stderr, dimmed, after the seconds since `started`. */
export function logSince(started: number): (message: string) => void {
	return (message) => {
		const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(5);
		process.stderr.write(`\u001b[2m${seconds} s  ${message}\u001b[0m\n`);
	};
}

/** The entries of `all` BENCH_ONLY names (every one when unset), in `all`'s order. */
export function selectedByBenchOnly<T>(all: readonly T[], nameOf: (entry: T) => string): T[] {
	const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim());
	if (!only) return [...all];
	const names = all.map(nameOf);
	const unknown = only.filter((name) => !names.includes(name));
	if (unknown.length)
		throw new Error(`BENCH_ONLY: unknown ${unknown.join(', ')} (${names.join(', ')})`);
	return all.filter((entry) => only.includes(nameOf(entry)));
}
