/**
 * `it` for the queue suites: a test that fails, or is still running when its time is nearly up,
 * fails with the end of the main's and each worker's log in its message. CI keeps only the end of
 * its output, and the "Summary of all failing tests" at that end is all it shows of a failure: a
 * queue test that failed there (2026-11-28, "1 failed" after 437 s) left nothing to tell which
 * test or why. The logs are n8n's own: no credential shows in them (the wrong-secret queue test
 * checks that).
 */
import type { QueueCluster } from './queue-cluster';
import { tail } from './services';

type LogSource = Pick<QueueCluster, 'main' | 'workers'>;

type TestFn = () => Promise<unknown> | unknown;

/** Lines of each log shown, each cut to this many characters. */
const LINES = 25;
const LINE_CHARS = 400;
/** Ends a test this long before jest's own timeout would, so the logs can still be read. */
const MARGIN_MS = 15_000;
/** jest.queue.config.js's testTimeout, for a test that gives none of its own. */
const QUEUE_TEST_TIMEOUT_MS = 300_000;

function logTails(cluster: LogSource | undefined): string {
	if (!cluster) return '(no cluster started)';
	return [cluster.main, ...cluster.workers]
		.map((entry) => {
			const lines = tail(entry.log, 64_000).split('\n').filter(Boolean).slice(-LINES);
			return `--- ${entry.name}, last ${lines.length} lines of ${entry.log}:\n${lines
				.map((line) => line.slice(0, LINE_CHARS))
				.join('\n')}`;
		})
		.join('\n');
}

function withLogs(
	cluster: () => LogSource | undefined,
	fn: TestFn,
	timeoutMs: number,
): () => Promise<void> {
	return async () => {
		let timer: NodeJS.Timeout | undefined;
		const outOfTime = new Promise<never>((_, reject) => {
			timer = setTimeout(
				() => reject(new Error(`still running after ${(timeoutMs - MARGIN_MS) / 1000} s`)),
				timeoutMs - MARGIN_MS,
			);
		});
		try {
			await Promise.race([Promise.resolve().then(fn), outOfTime]);
		} catch (error) {
			const failure = error instanceof Error ? error : new Error(String(error));
			failure.message += `\n\nn8n's logs when it failed:\n${logTails(cluster())}`;
			throw failure;
		} finally {
			clearTimeout(timer);
		}
	};
}

/**
 * `it` and `it.each` as jest has them, each test wrapped as above. `timeoutMs`: the suite's jest
 * timeout, unless a test gives its own.
 */
export function itShowingLogs(
	cluster: () => LogSource | undefined,
	timeoutMs = QUEUE_TEST_TIMEOUT_MS,
) {
	const wrapped = (name: string, fn: TestFn, timeout?: number) =>
		it(name, withLogs(cluster, fn, timeout ?? timeoutMs), timeout);
	wrapped.each =
		<Row extends unknown[]>(table: Row[]) =>
		(name: string, fn: (...row: Row) => Promise<unknown> | unknown, timeout?: number) =>
			it.each(table)(
				name,
				// jest hands each row's values as arguments.
				(...row: unknown[]) => withLogs(cluster, () => fn(...(row as Row)), timeout ?? timeoutMs)(),
				timeout,
			);
	return wrapped;
}
