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
 * While another execution of the process sends (a campaign worker's other batch), the check holds
 * the process no longer than this before it pauses: about the gap between two starts at a 500 a
 * second limit. Counted in items alone, a hold lasted as long as 50 items took: 8 to 15 ms on a
 * slower machine (an item's check 0.16 to 0.3 ms), longer than the 4 intervals a late start may
 * make up without a burst, and two workers sent 100,000 at 220.2 to 222.2 s where pauses every 10
 * or 5 items gave 216.3 and 215.6 s (the campaign bench, 2026-12-01).
 */
export const LONGEST_HOLD_BESIDE_OTHERS_MS = 2;

export interface PauseOptions {
	/** Items between two pauses at most. */
	items?: number;
	/** Whether another execution sends beside this one now: then holds are kept short. */
	othersSending?: () => boolean;
	/** The hold allowed while others send (ms). */
	holdMs?: number;
	pause?: () => Promise<void>;
	/** A clock in ms (fractions allowed). */
	now?: () => number;
}

/**
 * A function to await before each item: every `items`-th call waits for the next timer turn, or
 * the first call once the process was held `holdMs` while others send; so does every call made
 * while that wait lasts. Items are checked several at a time (Items in Parallel): if only one of
 * them waited, the others went on checking and the process never let go (11 turns of the event
 * loop for 2,000 items at 10 in parallel, against 40 or more). Those waiting go on together after
 * the wait, an item each, so a hold beside others lasts about Items in Parallel items at most
 * (1,000 template items at 20 in parallel: 20 items, some 3 to 6 ms on a slow worker). With
 * nobody else sending, a pause only costs the check its timer's turn (1 ms), so the count alone
 * applies.
 */
export function pauseEvery(options: PauseOptions = {}): () => Promise<void> {
	const {
		items = ITEMS_BETWEEN_PAUSES,
		othersSending = () => false,
		holdMs = LONGEST_HOLD_BESIDE_OTHERS_MS,
		pause = async () => await sleep(0),
		now = () => performance.now(),
	} = options;
	let since = 0;
	let heldSince = now();
	let pausing: Promise<void> | undefined;
	return async () => {
		if (pausing) return await pausing;
		since += 1;
		// Who else sends is asked first: a lone check reads no clock per item.
		if (since < items && !(othersSending() && now() - heldSince >= holdMs)) return;
		since = 0;
		pausing = pause().finally(() => {
			pausing = undefined;
			heldSince = now();
		});
		await pausing;
	};
}
