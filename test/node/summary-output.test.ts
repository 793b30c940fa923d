/**
 * Request Options > Output = Summary and Problems Only, in n8n's engine against the sandbox: one
 * summary item (counts, cost, who was sent with their message IDs), then only the recipients maybe
 * sent or not sent, each with its recipient, so a campaign batch is recorded in one write and its
 * execution data stays small. Every recipient is in exactly one of sent, maybe sent, not sent.
 */
import { flowSendParameters, jsonItems, smsSendParameters, useLostAnswerEnv } from './support';

const { env, lost } = useLostAnswerEnv();

const phones = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => `+2547005${String(from + index).padStart(5, '0')}`);
const recipients = (list: string[]) => jsonItems(...list.map((phone) => ({ phone })));
const summaryOf = (extra: Record<string, unknown> = {}) => ({
	...flowSendParameters,
	requestOptions: { output: 'summary', ...extra },
});
const idsByDestination = () =>
	new Map(
		env.sandbox.state.sentMessages.map((message) => [
			message.destination.replace('+', ''),
			message.id,
		]),
	);

describe('Output: Summary and Problems Only', () => {
	it('Send Template to 300: one item, every recipient in input order beside its message ID', async () => {
		const list = phones(300);
		const { items, error } = await env.run(summaryOf(), recipients(list));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const summary = items[0].json;
		expect(summary).toMatchObject({
			summary: true,
			items: 300,
			sent: 300,
			maybeSent: 0,
			notSent: 0,
		});
		expect(summary.sentTo).toEqual(list);
		const ids = idsByDestination();
		expect(summary.messageIds).toEqual(list.map((phone) => ids.get(phone.replace('+', ''))));
		expect(env.sandbox.state.sentMessages).toHaveLength(300);
		expect(items[0].pairedItem).toHaveLength(300);
	});

	it('a lost answer and an invalid recipient, On Error continue: the summary, then exactly those two', async () => {
		const list = phones(6, 100);
		const input = recipients(list);
		input[4].json.phone = 'call me maybe';
		lost.onSend(3);
		const { items, error } = await env.run(summaryOf({ concurrency: 1 }), input, {
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		const [summary, ...problems] = items.map((item) => item.json);
		expect(summary).toMatchObject({ sent: 4, maybeSent: 1, notSent: 1 });
		expect(summary.maybeSentTo).toEqual([list[2]]);
		expect(summary.notSentTo).toEqual(['call me maybe']);
		expect(summary.sentTo).toEqual([list[0], list[1], list[3], list[5]]);
		expect(problems).toEqual([
			expect.objectContaining({ recipient: list[2], outcome: 'maybe sent', mayHaveBeenSent: true }),
			expect.objectContaining({
				recipient: 'call me maybe',
				outcome: 'not sent',
				phone: 'call me maybe',
			}),
		]);
		expect(items.slice(1).map((item) => item.pairedItem)).toEqual([{ item: 2 }, { item: 4 }]);
		// The lost answer's message went out (the sandbox acted): maybe sent is the truth.
		expect(env.sandbox.state.sentMessages).toHaveLength(5);
	});

	it('Continue (using error output): the summary on the success output, the problems on the error output', async () => {
		const input = recipients(phones(3, 200));
		input[1].json.phone = '12';
		const { outputs, error } = await env.run(summaryOf(), input, {
			onError: 'continueErrorOutput',
		});
		expect(error).toBeUndefined();
		const [success, failed] = outputs;
		expect(success).toHaveLength(1);
		expect(success[0].json).toMatchObject({ sent: 2, notSent: 1, notSentTo: ['12'] });
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({
			error: expect.objectContaining({ recipient: '12', outcome: 'not sent' }),
		});
	});

	it('without Continue On Fail a refused item still stops the run with nothing sent', async () => {
		const input = recipients(phones(3, 300));
		input[2].json.phone = 'nope';
		const { error } = await env.run(summaryOf(), input);
		expect(error?.message).toContain('item 3');
		expect(String(error?.description)).toContain('Sent: none.');
		expect(env.sandbox.state.sentMessages).toHaveLength(0);
	});

	it('Send SMS to 250 (three requests): one summary with the cost of every part', async () => {
		const list = phones(250, 400);
		const { items, error } = await env.run(
			smsSendParameters({ requestOptions: { output: 'summary' } }),
			recipients(list),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		const summary = items[0].json;
		expect(summary).toMatchObject({ sent: 250, maybeSent: 0, notSent: 0 });
		expect(summary.sentTo).toEqual(list);
		expect(typeof summary.cost).toBe('number');
		const perRecipient = await env.run(smsSendParameters(), recipients(list));
		const costs = perRecipient.items.map((item) => item.json.cost as number);
		expect(summary.cost).toBeCloseTo(
			costs.reduce((sum, cost) => sum + cost, 0),
			6,
		);
	});

	it('keeps the output small: under a fifth of One Item per Recipient for 1,000 template sends', async () => {
		const list = phones(1000, 1000);
		const summary = await env.run(summaryOf({ concurrency: 50 }), recipients(list));
		env.sandbox.reset();
		const each = await env.run(
			{ ...flowSendParameters, requestOptions: { concurrency: 50 } },
			recipients(list),
		);
		const size = (run: typeof each) => JSON.stringify(run.items).length;
		console.log(
			`output of 1,000 sends: ${size(summary)} bytes as a summary, ${size(each)} per recipient`,
		);
		expect(summary.items[0].json.sent).toBe(1000);
		expect(each.items).toHaveLength(1000);
		// What stays is who and the message ID (and n8n's pairing): some 60 bytes a recipient.
		expect(size(summary) * 5).toBeLessThan(size(each));
	});

	it('a dry run lists every item whatever the Output (it is read, not recorded)', async () => {
		const { items } = await env.run({ ...summaryOf(), dryRun: true }, recipients(phones(3, 500)));
		expect(items.map((item) => item.json.outcome)).toEqual([
			'would send',
			'would send',
			'would send',
		]);
		expect(env.sandbox.state.sentMessages).toHaveLength(0);
	});

	it('an Output from an expression that is neither value: refused by name, nothing sent', async () => {
		const { error } = await env.run(
			{ ...flowSendParameters, requestOptions: { output: 'summaries' } },
			recipients(phones(2, 600)),
		);
		expect(error?.message).toContain('Request Options > Output is "summaries"');
		expect(env.sandbox.state.sentMessages).toHaveLength(0);
	});
});
