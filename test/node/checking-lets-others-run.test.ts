/**
 * A campaign worker runs two batches at once (decision 0015): one sends while the next one's items
 * are checked before its first send. The check lets the process's timers and answers run every 50
 * items (helpers/let-others-run.ts), or the sending batch's paced starts wait until every item is
 * checked. Counted in turns of Node's event loop, not in time: a check of 2,000 items that never
 * lets go gives the loop a few turns (its reads of the sender and template listings), one that
 * does gives it one at least every 50 items.
 */
import { ITEMS_BETWEEN_PAUSES } from '../../nodes/SmsLeopard/helpers/let-others-run';
import { flowSendParameters, phoneItems, useNodeEnv } from './support';

const env = useNodeEnv();
const ITEMS = 2000;

it.each([1, 10, 20])(
	'while 2,000 template items are checked before the first send, %i at a time, the process turns at least once every 50 items',
	async (concurrency) => {
		let turnsBeforeFirstSend = 0;
		let running = true;
		const turn = () => {
			if (!running) return;
			if (env.sends().length === 0) turnsBeforeFirstSend += 1;
			setImmediate(turn);
		};
		setImmediate(turn);
		try {
			const { items, error } = await env.run(
				{ ...flowSendParameters, requestOptions: { concurrency } },
				phoneItems('+2547003', ITEMS),
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(ITEMS);
		} finally {
			running = false;
		}
		expect(env.sends()).toHaveLength(ITEMS);
		expect(turnsBeforeFirstSend).toBeGreaterThanOrEqual(ITEMS / ITEMS_BETWEEN_PAUSES);
	},
);
