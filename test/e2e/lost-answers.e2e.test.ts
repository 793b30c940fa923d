/**
 * Lost answers and failed connections in real n8n (the packed package, `n8n execute`): a stopped run
 * sorts every item into sent (with message ids), maybe sent and not sent (issue 10.2); a refused
 * connection is "not sent, safe to run again", a connection reset after the sandbox acted "may have
 * been sent" (issue 10.9). Assertions read the error and items as text, whatever their shape in each
 * n8n version.
 */
import { type ExecuteResult, freePort, nodeItems, packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { expectOk, useSandboxedN8n } from './sandboxed-n8n';
import { code, trigger, workflow } from './workflows/build';
import { flowSend } from './workflows/flow-send';
import { sendSms } from './workflows/sms';
import { lostAnswer } from '../sandbox/lost-answer';

const GOOD = { id: 'e2eLostGood0000001', name: 'SMSLeopard sandbox' };
const REFUSED = { id: 'e2eLostRefused0001', name: 'SMSLeopard nothing listening' };

const tarball = packedForThisFile();
/** A loopback address nothing listens on: every connection to it is refused. */
let nothing: string;
beforeAll(async () => {
	nothing = `http://127.0.0.1:${await freePort()}`;
});

describe.each(selectedVersions())('lost answers in n8n %s', (version) => {
	const lost = lostAnswer();
	const n8n = useSandboxedN8n(
		version,
		tarball,
		(data) => [
			{ ...GOOD, type: 'smsLeopardApi', data },
			{ ...REFUSED, type: 'smsLeopardApi', data: { ...data, chatUrl: nothing } },
		],
		{},
		lost.hooks,
		// The run's shared n8n (harness/shared-n8n.ts): these tests read only their own runs.
		{ shared: true },
	);
	beforeAll(() => lost.attach(n8n.sandbox));
	beforeEach(() => lost.onSend(0));

	const recipients = (count: number) =>
		code(
			'Recipients',
			`Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+2547108000' + (10 + i) } }))`,
		);
	const send = (
		credential: typeof GOOD,
		onError?: 'continueRegularOutput' | 'continueErrorOutput',
	) =>
		flowSend(credential, onError ? { onError } : {}, {
			variablesMode: 'define',
			// One at a time, so "the second send" is well defined; no waits between read retries.
			requestOptions: { concurrency: 1, timeout: 5, maxRateLimitWait: 0 },
		});

	const run = async (name: string, count: number, last: ReturnType<typeof send>) =>
		await n8n.run(workflow(name, [[trigger(), recipients(count), last]]));

	const errorText = (result: ExecuteResult) => JSON.stringify(result.error);

	it('stops at a send whose answer was lost after SMSLeopard acted: sent with ids, maybe sent, not sent', async () => {
		lost.onSend(2);
		const result = await run('lost answer, stop', 5, send(GOOD));
		expect(result.ok).toBe(false);
		const sent = n8n.sandbox.state.sentMessages;
		// The sandbox acted on both sends; n8n saw the answer of the first only.
		expect(sent).toHaveLength(2);
		const error = errorText(result);
		expect(error).toContain(`Sent: item 1: ${sent[0].id}.`);
		expect(error).toContain('Maybe sent, not confirmed by SMSLeopard: item 2; check in SMSLeopard');
		expect(error).toContain(
			'Not sent (failed before SMSLeopard acted, or not started): items 3-5; safe to run again',
		);
		expect(error).toContain('The request may have reached the service');
	});

	it('Continue On Fail: the lost answer is an item that may have been sent (ECONNRESET), the others are sent', async () => {
		lost.onSend(2);
		const result = await run('lost answer, continue', 3, send(GOOD, 'continueRegularOutput'));
		expectOk(result);
		const items = nodeItems(result.runData, 'Send');
		expect(items.map((item) => item.code ?? item.messageId)).toEqual([
			n8n.sandbox.state.sentMessages[0].id,
			'ECONNRESET',
			n8n.sandbox.state.sentMessages[2].id,
		]);
		expect(items[1]).toMatchObject({ errorKind: 'connection', mayHaveBeenSent: true });
		// Not repeated: the service acted on each of the three once.
		expect(n8n.sandbox.state.sentMessages).toHaveLength(3);
	});

	it('a refused connection: not sent, and the error says it is safe to run again', async () => {
		const stopped = await run('refused, stop', 2, send(REFUSED));
		expect(stopped.ok).toBe(false);
		const error = errorText(stopped);
		expect(error).toContain('ECONNREFUSED');
		expect(error).toContain('The request did not reach the service: it is safe to run again');
		expect(error).toContain('Maybe sent, not confirmed by SMSLeopard: none.');
		expect(error).not.toContain('may have reached');

		const continued = await run('refused, continue', 1, send(REFUSED, 'continueRegularOutput'));
		expectOk(continued);
		expect(nodeItems(continued.runData, 'Send')[0]).toMatchObject({
			errorKind: 'connection',
			code: 'ECONNREFUSED',
			mayHaveBeenSent: false,
		});
		expect(n8n.sandbox.state.sentMessages).toHaveLength(0);
	});

	describe('an SMS answer that leaves out a recipient it sent to (sandbox sendAnswers: dropLast)', () => {
		const phones = code(
			'Customers',
			"['+254710900001', '+254710900002', '+254710900003'].map((phone) => ({ json: { phone } }))",
		);
		const smsTo = (onError?: 'continueRegularOutput') => ({
			...sendSms('Send', GOOD, 'Flash sale today only', { recipientsPerRequest: 3 }),
			...(onError ? { onError } : {}),
		});
		const sentIds = () => n8n.sandbox.state.smsMessages.map((message) => message.id);

		it('Continue On Fail: the listed items carry their own ids, the unlisted one is maybe sent', async () => {
			n8n.sandbox.setOptions({ sendAnswers: 'dropLast' });
			const result = await n8n.run(
				workflow('sms answer without a recipient', [
					[trigger(), phones, smsTo('continueRegularOutput')],
				]),
			);
			expectOk(result);
			const items = nodeItems(result.runData, 'Send');
			const ids = sentIds();
			expect(ids).toHaveLength(3);
			expect(items.map((item) => item.messageId)).toEqual([ids[0], ids[1], undefined]);
			expect(items[2]).toMatchObject({ mayHaveBeenSent: true, code: 'unpaired_answer' });
		});

		it('Stop Workflow: the summary gives the sent ids and the unlisted item as maybe sent', async () => {
			n8n.sandbox.setOptions({ sendAnswers: 'dropLast' });
			const result = await n8n.run(
				workflow('sms answer without a recipient, stop', [[trigger(), phones, smsTo()]]),
			);
			expect(result.ok).toBe(false);
			const ids = sentIds();
			const error = errorText(result);
			expect(error).toContain(`Sent: item 1: ${ids[0]}; item 2: ${ids[1]}.`);
			expect(error).toContain('Maybe sent, not confirmed by SMSLeopard: item 3;');
			expect(error).toContain('Not sent (failed before SMSLeopard acted, or not started): none.');
		});
	});
});
