/**
 * Every item ends as sent (with its own message id), maybe sent or not sent, in n8n's real engine,
 * when the service sends but its answer leaves something out (the sandbox's `sendAnswers` knob): a
 * recipient missing from the answer, or entries without their numbers. Such items were sent, so
 * they must never read "not sent, safe to run again"; under every On Error setting.
 */
import { binaryItem } from '../harness';
import { KEPT_LISTINGS } from '../../nodes/SmsLeopard/helpers/kept-listings';
import { TEMPLATES } from '../sandbox';
import {
	type NodeEnv,
	flowSendParameters,
	jsonItems,
	startNodeEnv,
	templateLocator,
	smsSendParameters,
} from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const sendSms = (recipientsPerRequest: number) =>
	smsSendParameters({ smsOptions: { recipientsPerRequest } });

const customers = jsonItems(
	{ phone: '+254700000001' },
	{ phone: '0700000002' },
	{ phone: '254700000003' },
);

/** The message id the sandbox gave each number it sent to, in sending order. */
const smsSent = () => env.sandbox.state.smsMessages.map((m) => ({ number: m.number, id: m.id }));

describe('an SMS answer that leaves out a recipient it sent to', () => {
	beforeEach(() => env.sandbox.setOptions({ sendAnswers: 'dropLast' }));

	it('Continue On Fail: the listed are sent with their own ids, the unlisted one maybe sent', async () => {
		const { items, error } = await env.run(sendSms(3), customers, { continueOnFail: true });
		expect(error).toBeUndefined();
		const sent = smsSent();
		expect(sent.map((m) => m.number)).toEqual(['+254700000001', '+254700000002', '+254700000003']);
		expect(items.map((item) => item.json.messageId)).toEqual([sent[0].id, sent[1].id, undefined]);
		expect(items[2].json).toMatchObject({ mayHaveBeenSent: true, code: 'unpaired_answer' });
		expect(String(items[2].json.error)).toMatch(/^Maybe sent: .*254700000003.*not sent again/);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('Continue (using error output): the unlisted item goes to the error output, maybe sent', async () => {
		const { outputs } = await env.run(sendSms(3), customers, { onError: 'continueErrorOutput' });
		const [success, failed] = outputs;
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(failed).toHaveLength(1);
		expect(failed[0].json.error).toMatchObject({ mayHaveBeenSent: true });
	});

	it('Stop Workflow: the summary lists the sent ids and the unlisted item as maybe sent', async () => {
		const { error } = await env.run(sendSms(3), customers);
		const sent = smsSent();
		const description = String(error?.description);
		expect(description).toContain(`Sent: item 1: ${sent[0].id}; item 2: ${sent[1].id}.`);
		expect(description).toContain('Maybe sent, not confirmed by SMSLeopard: item 3;');
		expect(description).toContain(
			'Not sent (failed before SMSLeopard acted, or not started): none.',
		);
	});
});

describe('an answer whose entries name no number', () => {
	beforeEach(() => env.sandbox.setOptions({ sendAnswers: 'noNumbers' }));

	it('SMS: several recipients per request cannot be told apart, so all are maybe sent', async () => {
		const { items } = await env.run(sendSms(3), customers, { continueOnFail: true });
		expect(smsSent()).toHaveLength(3);
		expect(items.map((item) => [item.json.messageId, item.json.mayHaveBeenSent])).toEqual([
			[undefined, true],
			[undefined, true],
			[undefined, true],
		]);
	});

	it('SMS: one recipient per request is its lone entry, sent with that id', async () => {
		const { items, error } = await env.run(sendSms(1), customers);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.messageId)).toEqual(smsSent().map((m) => m.id));
	});

	it('Send Template: the lone entry of one destination is its own', async () => {
		const { items, error } = await env.run(
			flowSendParameters,
			jsonItems({ phone: '+254700000009' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.messageId).toBe(env.sandbox.state.sentMessages[0].id);
	});
});

describe('a template send answered without its recipient', () => {
	it('is maybe sent under every On Error setting, and the summary says so', async () => {
		env.sandbox.setOptions({ sendAnswers: 'dropLast' });
		const phones = jsonItems({ phone: '+254700000011' });
		const continued = await env.run(flowSendParameters, phones, { continueOnFail: true });
		expect(continued.items[0].json).toMatchObject({ mayHaveBeenSent: true });
		const routed = await env.run(flowSendParameters, phones, { onError: 'continueErrorOutput' });
		expect(routed.outputs[1][0].json.error).toMatchObject({ mayHaveBeenSent: true });
		const stopped = await env.run(flowSendParameters, phones);
		expect(String(stopped.error?.description)).toContain(
			'Maybe sent, not confirmed by SMSLeopard: item 1;',
		);
		// Sent each time, never repeated within a run.
		expect(env.sandbox.state.sentMessages).toHaveLength(3);
	});
});

describe('a header upload whose answer cannot be read, before the template send', () => {
	// The upload may have stored the file (an unreadable success is never repeated), but the item's
	// message never went out: not sent.
	let faulted: string[] = [];
	let armed = false;
	let uploadEnv: NodeEnv;
	beforeAll(async () => {
		uploadEnv = await startNodeEnv(
			{},
			{
				// The template listing is the last read before the upload: the next answer is cut to
				// half its JSON after the sandbox handled the request.
				onResponse(entry) {
					if (armed && entry.path.endsWith('/templates')) {
						uploadEnv.sandbox.setOptions({ malformedJsonRate: 1 });
					}
				},
				onFault(entry) {
					faulted.push(`${entry.method} ${entry.path}`);
					armed = false;
					uploadEnv.sandbox.setOptions({ malformedJsonRate: 0 });
				},
			},
		);
	});
	afterAll(async () => await uploadEnv.stop());

	it('leaves the item not sent, safe to run again, under Continue On Fail and Stop Workflow', async () => {
		const parameters = {
			...flowSendParameters,
			template: templateLocator(TEMPLATES.documentHeader.id),
			variablesMode: 'template',
			headerMedia: 'binary',
			binaryPropertyName: 'brochure',
			templateFields: { mappingMode: 'defineBelow', value: { body_1: 'INV-1' } },
		};
		const item = async () =>
			await binaryItem(
				{ phone: '+254700300001' },
				'brochure',
				Buffer.from('%PDF-1.4 brochure'),
				'brochure.pdf',
				'application/pdf',
			);
		for (const options of [{ continueOnFail: true }, {}]) {
			uploadEnv.sandbox.reset();
			// The fault is armed by the template listing: the second run must list, not reuse it.
			KEPT_LISTINGS.forgetAll();
			faulted = [];
			armed = true;
			const { items, error } = await uploadEnv.run(parameters, [await item()], options);
			expect(faulted).toEqual(['POST /v1/whatsapp/media']);
			expect(uploadEnv.sandbox.state.media).toHaveLength(1);
			expect(uploadEnv.sandbox.state.sentMessages).toHaveLength(0);
			if (options.continueOnFail) {
				expect(items[0].json).toMatchObject({ mayHaveBeenSent: false });
				expect(String(items[0].json.error)).toMatch(/unexpected body/);
			} else {
				expect(String(error?.description)).toContain(
					'Not sent (failed before SMSLeopard acted, or not started): item 1; safe to run again.',
				);
			}
		}
	});
});
