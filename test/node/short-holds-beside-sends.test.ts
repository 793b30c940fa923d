/**
 * A campaign worker checks its next batch while the other one sends (decision 0015). While another
 * execution shares the account's pacer, the check pauses for a timer's turn once it held the
 * process 2 ms, whatever an item's check costs, and the items being checked at once (Items in
 * Parallel) each finish theirs first; counted in items alone, it held the process for 50 items.
 * Here each item's check costs at least 1 ms (its destination expression waits out a millisecond),
 * so 50 items would hold the process 50 ms and more, and a paced start's timer would wait as long.
 */
import {
	ITEMS_BETWEEN_PAUSES,
	LONGEST_HOLD_BESIDE_OTHERS_MS,
	pauseEvery,
} from '../../nodes/SmsLeopard/helpers/let-others-run';
import { flowSendParameters, phoneItems, useNodeEnv } from './support';

const env = useNodeEnv();

/** The destination after at least a millisecond of the process's time: a costly item check. */
const SLOW_DESTINATION =
	'={{ (() => { const until = Date.now() + 1; while (Date.now() < until) {} return $json.phone; })() }}';

/**
 * How late a timer of 2 ms fired, again and again, while `during` runs (ms): a paced start waits on
 * such a timer, and a check that holds the process makes it late.
 */
async function timerLatenessDuring(during: () => Promise<unknown>): Promise<number[]> {
	const lateness: number[] = [];
	let running = true;
	let due = performance.now() + 2;
	const tick = () => {
		if (!running) return;
		const now = performance.now();
		lateness.push(now - due);
		due = now + 2;
		setTimeout(tick, 2);
	};
	setTimeout(tick, 2);
	try {
		await during();
	} finally {
		running = false;
	}
	return lateness;
}

it('while another execution of the account sends, checking 300 costly items lets a paced timer run every few items, not every 50', async () => {
	// The sending execution: 30 sends at its share (10 a second of 20, shared by 2), one at a time.
	const sending = env.run(
		{
			...flowSendParameters,
			requestOptions: { concurrency: 1, requestsPerSecond: 20, sharedBy: 2 },
		},
		phoneItems('+2547006', 30),
	);
	// Once it sends, the other execution checks its 300 items beside it.
	while (env.sends().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
	let checking!: Promise<Awaited<typeof sending>>;
	const lateness = await timerLatenessDuring(async () => {
		checking = env.run(
			{
				...flowSendParameters,
				destination: SLOW_DESTINATION,
				requestOptions: { concurrency: 10, requestsPerSecond: 20, sharedBy: 2 },
			},
			phoneItems('+2547007', 300),
		);
		// Its check ends before its first send (which waits its turn behind the sending execution).
		while (!env.sends().some((send) => String(send.destination).startsWith('+2547007')))
			await new Promise((resolve) => setTimeout(resolve, 5));
	});
	const [sent, checked] = await Promise.all([sending, checking]);
	expect(sent.error).toBeUndefined();
	expect(checked.error).toBeUndefined();
	expect(env.sends()).toHaveLength(330);
	// At 10 in parallel, about 10 ms between pauses (9 to 12 ms late); counted in items, a pause
	// every 50 items (57 to 93 ms late). One late timer is allowed: the execution's own start.
	const longHolds = lateness.filter((late) => late >= 30);
	expect(longHolds.length).toBeLessThanOrEqual(1);
}, 60_000);

describe('pauseEvery, on a clock the test moves', () => {
	/** Checks `items` items one after the other, each taking `itemMs`; returns the pauses made. */
	async function pausesFor(items: number, itemMs: number, othersSending: boolean): Promise<number> {
		let clock = 0;
		let pauses = 0;
		const letOthersRun = pauseEvery({
			othersSending: () => othersSending,
			now: () => clock,
			pause: async () => {
				pauses += 1;
			},
		});
		for (let item = 0; item < items; item++) {
			await letOthersRun();
			clock += itemMs;
		}
		return pauses;
	}

	it('beside another execution sending, pauses once the process was held 2 ms, however costly an item', async () => {
		// 1 ms an item: a pause every 2 items, not every 50.
		const everyTwo = await pausesFor(1000, 1, true);
		expect(everyTwo).toBeGreaterThanOrEqual(1000 / LONGEST_HOLD_BESIDE_OTHERS_MS - 1);
		expect(everyTwo).toBeLessThanOrEqual(1000 / LONGEST_HOLD_BESIDE_OTHERS_MS);
		// 0.01 ms an item: 50 items hold the process 0.5 ms, so the count still comes first.
		expect(await pausesFor(1000, 0.01, true)).toBe(1000 / ITEMS_BETWEEN_PAUSES);
	});

	it('with nobody else sending, pauses every 50 items only, whatever they cost', async () => {
		expect(await pausesFor(1000, 1, false)).toBe(1000 / ITEMS_BETWEEN_PAUSES);
	});
});
