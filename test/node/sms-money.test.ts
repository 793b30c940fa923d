/**
 * What a Send SMS costs is what the output says, and no more than the user allowed: Max Parts per
 * Message applies its default 1 when the option was never added, and parts are counted as networks
 * split texts (a two-unit character on a part boundary moves whole to the next part).
 */
import type { INodeParameters } from 'n8n-workflow';
import { type NodeEnv, jsonItems, startNodeEnv, smsSendParameters } from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const smsSends = () => env.sandbox.requests.filter((request) => request.path === '/v1/sms/send');

const sendSms = (smsOptions?: INodeParameters) =>
	smsSendParameters({ message: '={{ $json.text }}', ...(smsOptions ? { smsOptions } : {}) });

const STRADDLING_EURO = `${'a'.repeat(152)}€${'a'.repeat(152)}`;
const EMOJI_67 = '😀'.repeat(67);

describe('Max Parts per Message', () => {
	it.each([
		['Options never added', undefined],
		['Options without Max Parts', { recipientsPerRequest: 10 }],
	])(
		'%s: a 2-part text is sent, its parts and cost in the output (up to 6 parts without the option)',
		async (_case, options) => {
			const { items, error } = await env.run(
				sendSms(options),
				jsonItems({ phone: '+254700000001', text: 'a'.repeat(161) }),
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ parts: 2, encoding: 'GSM-7', cost: 1.8 });
			expect(smsSends()).toHaveLength(1);
		},
	);

	it('without the option, a text over 6 parts is refused before any request', async () => {
		const { error } = await env.run(
			sendSms(),
			jsonItems({ phone: '+254700000001', text: 'a'.repeat(153 * 6 + 1) }),
		);
		expect(error?.message).toMatch(
			/"Message" would be sent in 7 parts .*more than the maximum of 6: shorten it or raise "Max Parts per Message"/,
		);
		expect(smsSends()).toHaveLength(0);
	});

	it('a workflow saved with Max Parts per Message 1 (the old default, added to Options) keeps refusing a 2-part text', async () => {
		const { error } = await env.run(
			sendSms({ maxParts: 1 }),
			jsonItems({ phone: '+254700000001', text: 'a'.repeat(161) }),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 1: "Message" would be sent in 2 parts .*more than the maximum of 1/,
		);
		expect(smsSends()).toHaveLength(0);
	});

	it('a one-part text still goes out without the option', async () => {
		const { items, error } = await env.run(
			sendSms(),
			jsonItems({ phone: '+254700000001', text: 'a'.repeat(160) }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ parts: 1, cost: 0.9 });
	});

	it.each([
		['152 × "a" + "€" + 152 × "a"', STRADDLING_EURO, 'GSM-7', 306],
		['67 emoji', EMOJI_67, 'UCS-2', 134],
	])(
		'%s is 3 parts: refused at 2, sent and billed as 3 at 3',
		async (_name, text, encoding, characters) => {
			const refused = await env.run(
				sendSms({ maxParts: 2 }),
				jsonItems({ phone: '+254700000001', text }),
			);
			expect(refused.error?.message).toContain('would be sent in 3 parts');
			expect(smsSends()).toHaveLength(0);

			const sent = await env.run(
				sendSms({ maxParts: 3 }),
				jsonItems({ phone: '+254700000001', text }),
			);
			expect(sent.error).toBeUndefined();
			// The sandbox bills by its own counter: the output's parts and cost agree with the bill.
			expect(sent.items[0].json).toMatchObject({ parts: 3, encoding, characters, cost: 2.7 });
		},
	);
});
