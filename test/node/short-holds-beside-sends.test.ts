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

/** Where the destination expression counts its evaluations, one per item checked. */
interface CheckCounter {
	checks?: number;
}
const counter = Date as unknown as CheckCounter;

/**
 * The destination after at least a millisecond of the process's time: a costly item check. It
 * counts itself on `Date` (the one global an expression reaches), so the test can say how many
 * items were checked between two turns of a timer, whatever the machine's speed or a pause of the
 * whole process (garbage collection, another process on the core) does to milliseconds.
 */
const SLOW_COUNTED_DESTINATION =
	'={{ (() => { Date.checks = (Date.checks || 0) + 1; const until = Date.now() + 1; while (Date.now() < until) {} return $json.phone; })() }}';

/**
 * The items checked between two turns of a 2 ms timer, turn after turn, while `during` runs: a
 * paced start waits on such a timer, and it cannot run while the check holds the process.
 */
async function checksBetweenTimerTurns(during: () => Promise<unknown>): Promise<number[]> {
	const between: number[] = [];
	let running = true;
	let checksAtLastTurn = counter.checks ?? 0;
	const turn = () => {
		if (!running) return;
		const checks = counter.checks ?? 0;
		between.push(checks - checksAtLastTurn);
		checksAtLastTurn = checks;
		setTimeout(turn, 2);
	};
	setTimeout(turn, 2);
	try {
		await during();
	} finally {
		running = false;
	}
	return between;
}

afterEach(() => {
	delete counter.checks;
});

it('while another execution of the account sends, checking 300 costly items lets a paced timer run every few items, not every 50', async () => {
	// The sending execution: 200 sends at its share (100 a second of 200, shared by 2), one at a
	// time: 2 s, several times as long as the other's check takes.
	const sending = env.run(
		{
			...flowSendParameters,
			requestOptions: { concurrency: 1, requestsPerSecond: 200, sharedBy: 2 },
		},
		phoneItems('+2547006', 200),
	);
	// Once it sends, the other execution checks its 300 items beside it.
	while (env.sends().length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
	counter.checks = 0;
	let checking!: Promise<Awaited<typeof sending>>;
	const between = await checksBetweenTimerTurns(async () => {
		checking = env.run(
			{
				...flowSendParameters,
				destination: SLOW_COUNTED_DESTINATION,
				requestOptions: { concurrency: 10, requestsPerSecond: 200, sharedBy: 2 },
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
	expect(env.sends()).toHaveLength(500);
	expect(counter.checks).toBe(300);
	// The other execution still sent after the check ended, so it sent beside the whole check.
	const sends = env.sends().map((send) => String(send.destination));
	const firstOfTheChecked = sends.findIndex((destination) => destination.startsWith('+2547007'));
	expect(sends.slice(firstOfTheChecked).some((d) => d.startsWith('+2547006'))).toBe(true);
	// Held 2 ms, then the 10 items being checked at once finish theirs: 10 items between two turns
	// (measured). Counted in items alone, 50 and the 10 in parallel went by: 59.
	expect(Math.max(...between)).toBeLessThanOrEqual(25);
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
