/**
 * The node's one worker pool: tasks 0 to count - 1 start in order, at most `concurrency` at a time.
 * With `stopOnFailure`, no task starts once one has reported a failure; those in flight finish, so
 * what they did is still accounted for.
 */
export async function runPool(
	count: number,
	concurrency: number,
	stopOnFailure: boolean,
	run: (index: number) => Promise<{ failed: boolean }>,
): Promise<void> {
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < count) {
			const { failed } = await run(next++);
			if (failed && stopOnFailure) stopped = true;
		}
	};
	await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, worker));
}
