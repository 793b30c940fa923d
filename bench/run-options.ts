/**
 * What every bench runner logs the same way: a line with the seconds since it started.
 */

/** Logs to stderr, dimmed, after the seconds since `started`. */
export function logSince(started: number): (message: string) => void {
	return (message) => {
		const seconds = ((Date.now() - started) / 1000).toFixed(0).padStart(5);
		process.stderr.write(`\u001b[2m${seconds} s  ${message}\u001b[0m\n`);
	};
}
