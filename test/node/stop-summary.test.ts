/**
 * Without Continue On Fail the run stops at the first failed item, and its error sorts every item
 * into sent (with message ids), maybe sent (the answer was lost after SMSLeopard may have acted) and
 * not sent, so a rerun can skip the right ones. The lost answer is the sandbox's reset-after-handling
 * fault: the message is recorded as sent, the socket is destroyed before the answer.
 */
import { flowSendParameters, jsonItems, useLostAnswerEnv } from './support';

const { env, lost } = useLostAnswerEnv();

const parameters = {
	...flowSendParameters,
	requestOptions: { concurrency: 1 },
};
const recipients = (count: number) =>
	jsonItems(
		...Array.from({ length: count }, (_, index) => ({ phone: `+2547004000${10 + index}` })),
	);

describe('Stop on the first failure: what was sent, maybe sent and not sent', () => {
	it('a lost answer after the message went out: the item is "maybe sent", the rest "not sent"', async () => {
		lost.onSend(2);
		const { error } = await env.run(parameters, recipients(5));
		expect(error).toBeDefined();
		const description = String(error?.description);
		const sent = env.sandbox.state.sentMessages;
		// The service acted on both sends; the node saw the answer of the first only.
		expect(sent).toHaveLength(2);
		expect(description).toContain(`Sent: item 1: ${sent[0].id}.`);
		expect(description).toContain(
			'Maybe sent, not confirmed by SMSLeopard: item 2; check in SMSLeopard',
		);
		expect(description).toContain(
			'Not sent (failed before SMSLeopard acted, or not started): items 3-5; safe to run again',
		);
		expect(description).not.toContain('No other item had succeeded');
	});

	it('an invalid item: checked before any send, so every item is "not sent"', async () => {
		const items = recipients(4);
		items[2].json.phone = 'call me maybe';
		const { error } = await env.run(parameters, items);
		const description = String(error?.description);
		expect(env.sandbox.state.sentMessages).toHaveLength(0);
		expect(error?.message).toContain('item 3');
		expect(description).toContain('Sent: none.');
		expect(description).toContain('Maybe sent, not confirmed by SMSLeopard: none.');
		expect(description).toContain('items 1-4; safe to run again');
	});
});
