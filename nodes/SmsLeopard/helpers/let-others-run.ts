/**
 * Checking every item before the first send (router.ts) holds the Node.js process: about 0.3 s for
 * 1,000 template items on a busy worker. A campaign worker runs two batches at once (decision
 * 0015), the next one checked while the other sends; while the check holds the process, the
 * sending batch's paced starts wait, and a late start under Max Requests per Second is never made
 * up. So the check lets the process's timers and answers run every few items.
 */
import { sleep } from 'n8n-workflow';

/** Items checked between two pauses: 1,000 items pause 20 times, each a timer's turn. */
export const ITEMS_BETWEEN_PAUSES = 50;

/**
 * A function to await before each item: every `items`-th call waits for the next timer turn, and
 * so does every call made while that wait lasts. Items are checked several at a time (Items in
 * Parallel): if only one of them waited, the others went on checking and the process never let go
 * (11 turns of the event loop for 2,000 items at 10 in parallel, against 40 or more).
 */
export function pauseEvery(
	items = ITEMS_BETWEEN_PAUSES,
	pause: () => Promise<void> = async () => await sleep(0),
): () => Promise<void> {
	let since = 0;
	let pausing: Promise<void> | undefined;
	return async () => {
		if (pausing) return await pausing;
		since += 1;
		if (since < items) return;
		since = 0;
		pausing = pause().finally(() => {
			pausing = undefined;
		});
		await pausing;
	};
}
