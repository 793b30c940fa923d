import { NodeHelpers } from 'n8n-workflow';
import { TEMPLATES } from '../sandbox';
import { binaryItem } from '../harness';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import {
	jsonItems,
	senderLocator,
	smsSendParameters,
	templateLocator,
	changingRequests,
	hintsOf,
	useNodeEnv,
} from './support';

/**
 * Dry Run: every item is checked as for a send, nothing reaches SMSLeopard but the reads a send
 * would make first (template listings), and the output says what each recipient would get and
 * what it would cost, with the run's totals above it.
 */
const env = useNodeEnv();

const customers = jsonItems(
	{ phone: '+254700000001', name: 'Amina' },
	{ phone: '0700000002', name: 'Brian 😀' },
	{ phone: '254700000003', name: 'Chao' },
);

describe('Send SMS dry run', () => {
	const dryRun = (extra: Record<string, unknown> = {}) =>
		smsSendParameters({
			textMode: 'customized',
			message: 'Hi {name}, your order is ready',
			smsOptions: { recipientsPerRequest: 2 },
			dryRun: true,
			...extra,
		});

	it('sends nothing and outputs each text, its parts and cost, with the totals above', async () => {
		const { items, error, run } = await env.run(dryRun({ pricePerPart: 0.8 }), customers);
		expect(error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(env.sandbox.state.smsMessages).toEqual([]);
		expect(items.map(({ json }) => json)).toEqual([
			{
				phone: '+254700000001',
				name: 'Amina',
				dryRun: true,
				outcome: 'would send',
				recipient: '+254700000001',
				number: '+254700000001',
				message: 'Hi Amina, your order is ready',
				parts: 1,
				encoding: 'GSM-7',
				characters: 29,
				estimatedCost: 0.8,
				request: 1,
			},
			expect.objectContaining({
				dryRun: true,
				message: 'Hi Brian 😀, your order is ready',
				encoding: 'UCS-2',
				nonGsmCharacters: ['😀'],
				parts: 1,
				estimatedCost: 0.8,
				request: 1,
			}),
			expect.objectContaining({
				dryRun: true,
				message: 'Hi Chao, your order is ready',
				request: 2,
			}),
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(hintsOf(run)).toEqual([
			'Dry run, nothing was sent: 3 SMS would go out (3 parts, estimated cost 2.4 at 0.8 per part), 0 would be refused.',
		]);
	});

	it('counts every part of a long text, and says the cost is unknown without a price', async () => {
		const long = 'a'.repeat(200);
		const { items, error, run } = await env.run(
			smsSendParameters({ message: long, dryRun: true, smsOptions: { maxParts: 3 } }),
			jsonItems({ phone: '+254700000001' }, { phone: '+254700000002' }),
		);
		expect(error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(items.map(({ json }) => [json.parts, json.characters, json.estimatedCost])).toEqual([
			[2, 200, null],
			[2, 200, null],
		]);
		expect(hintsOf(run)).toEqual([
			'Dry run, nothing was sent: 2 SMS would go out (4 parts, cost unknown: set Price per Part to estimate it), 0 would be refused.',
		]);
	});

	it('reports every item, refused ones with their reason and fix, and never stops at the first', async () => {
		// A campaign check: a bad number and an emoji text over 70 characters at Max Parts 1 among
		// good items; every problem is shown at once, under every On Error setting.
		const long = `Big sale 🎉 ${'x'.repeat(70)}`;
		const withBad = jsonItems(
			{ phone: '+254700000001', text: 'Hi Amina' },
			{ phone: '12', text: 'Hi Brian' },
			{ phone: '+254700000003', text: long },
		);
		const parameters = smsSendParameters({
			textMode: 'customized',
			message: '{text}',
			dryRun: true,
			pricePerPart: 1,
			smsOptions: { maxParts: 1 },
		});
		for (const onError of [
			'stopWorkflow',
			'continueRegularOutput',
			'continueErrorOutput',
		] as const) {
			const { items, error, run, outputs } = await env.run(parameters, withBad, {
				onError,
				continueOnFail: onError !== 'stopWorkflow',
			});
			expect(error).toBeUndefined();
			expect(changingRequests(env)).toEqual([]);
			// Refusals are what a dry run reports: they stay on the main output.
			expect(outputs?.[1] ?? []).toEqual([]);
			expect(items.map(({ json }) => json.outcome)).toEqual([
				'would send',
				'would be refused',
				'would be refused',
			]);
			expect(items[1].json).toMatchObject({
				dryRun: true,
				reason: expect.stringMatching(/^"Recipient" is not a valid phone number/),
				fix: expect.stringContaining('Correct the field named in the reason'),
				fields: ['Recipient'],
			});
			expect(items[2].json.reason).toMatch(
				/^"Message" would be sent in 2 parts .*because "🎉" is not in the GSM alphabet, so the text goes as UCS-2.*more than the maximum of 1/,
			);
			expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
			expect(hintsOf(run)).toEqual([
				'Dry run, nothing was sent: 1 SMS would go out (1 part, estimated cost 1 at 1 per part), 2 would be refused (their "reason" and "fix" are in the output).',
			]);
		}
	});

	it('flags a same-for-everyone text with {placeholders}, as a send would refuse it', async () => {
		const { items, error } = await env.run(
			smsSendParameters({ message: 'Dear {name}, your order {orderId} is ready', dryRun: true }),
			jsonItems({ phone: '+254700000001', name: 'Amina', orderId: 'A-1' }),
		);
		expect(error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(items[0].json).toMatchObject({
			outcome: 'would be refused',
			reason: expect.stringContaining('has {name}, {orderId}, which every recipient would get'),
		});
	});

	it('refuses a price that is not a number, naming the field', async () => {
		const { error } = await env.run(dryRun({ pricePerPart: '={{ "cheap" }}' }), customers);
		expect(error?.message).toContain('Price per Part');
		expect(changingRequests(env)).toEqual([]);
	});
});

describe('Send Template dry run', () => {
	const pdf = Buffer.from('%PDF-1.4\n' + 'invoice '.repeat(100));
	const invoiceSend = (extra: Record<string, unknown> = {}) => ({
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: senderLocator,
		template: templateLocator(TEMPLATES.documentHeader.id),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: { mappingMode: 'defineBelow', value: { body_1: '={{ $json.invoice }}' } },
		headerMedia: 'binary',
		binaryPropertyName: 'invoice',
		dryRun: true,
		...extra,
	});
	const invoices = async () =>
		await Promise.all(
			['+254700300001', '+254700300002'].map(
				async (phone, index) =>
					await binaryItem(
						{ phone, invoice: `INV-${index + 1}` },
						'invoice',
						pdf,
						'a.pdf',
						'application/pdf',
					),
			),
		);

	it('checks every item against its template and uploads and sends nothing', async () => {
		const { items, error, run } = await env.run(
			invoiceSend({
				pricePerMessage: 0.05,
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: '={{ $json.invoice }}', document_file_name: 'Duka Bora invoice.pdf' },
				},
			}),
			await invoices(),
		);
		expect(error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(items.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				dryRun: true,
				outcome: 'would send',
				recipient: '+254700300001',
				// Readable, as the recipient would get it; not the request's component JSON.
				bodyText: 'Invoice INV-1 is attached.',
				headerFile: 'Duka Bora invoice.pdf',
				templateName: 'invoice',
				templateId: TEMPLATES.documentHeader.id,
				headerUpload: 'the file of the input item, uploaded when sent',
				estimatedCost: 0.05,
			}),
			expect.objectContaining({ dryRun: true, bodyText: 'Invoice INV-2 is attached.' }),
		]);
		expect(items[0].json).not.toHaveProperty('messageId');
		expect(items[0].json).not.toHaveProperty('componentList');
		expect(hintsOf(run)).toEqual([
			'Dry run, nothing was sent: 2 template messages would go out (estimated cost 0.1 at 0.05 per message), 0 would be refused.',
		]);
	});

	it('lists an item whose template is not approved as refused, beside the others', async () => {
		const { items, error, run } = await env.run(
			{
				...invoiceSend(),
				template: templateLocator('={{ $json.template }}'),
				headerMedia: 'none',
				variablesMode: 'define',
			},
			jsonItems(
				{ phone: '+254700200001', template: TEMPLATES.flow.id },
				{ phone: '+254700200002', template: TEMPLATES.pending.id },
			),
		);
		expect(error).toBeUndefined();
		expect(items.map(({ json }) => json.outcome)).toEqual(['would send', 'would be refused']);
		expect(items[1].json.reason).toMatch(/not approved|PENDING/i);
		expect(changingRequests(env)).toEqual([]);
		expect(hintsOf(run)[0]).toMatch(/1 template message would go out .*, 1 would be refused/);
	});

	it('with Dry Run off the same items are uploaded and sent', async () => {
		const { items, error } = await env.run(invoiceSend({ dryRun: false }), await invoices());
		expect(error).toBeUndefined();
		expect(env.sends()).toHaveLength(2);
		expect(items.every(({ json }) => typeof json.messageId === 'string')).toBe(true);
	});
});

describe('the SMS text notices in the editor (n8n decides what is shown)', () => {
	const properties = new SmsLeopard().description.properties;
	const notices = properties.filter((property) => /Notice$/.test(property.name));
	const shown = (message: string) =>
		notices
			.filter((property) =>
				NodeHelpers.displayParameter(
					{ resource: 'message', operation: 'sendSms', message },
					property,
					null,
					null,
				),
			)
			.map((property) => property.name);

	it.each([
		['a short GSM text', 'Flash sale today only', []],
		['160 GSM characters', 'a'.repeat(160), []],
		['161 GSM characters: 2 parts', 'a'.repeat(161), ['longText2PartsNotice']],
		['306 GSM characters: 2 parts', 'a'.repeat(306), ['longText2PartsNotice']],
		['307 GSM characters: 3 parts', 'a'.repeat(307), ['longText3PartsNotice']],
		['918 GSM characters: 6 parts', 'a'.repeat(918), ['longText6PartsNotice']],
		['1,000 GSM characters: 7 or more', 'a'.repeat(1000), ['longText7PartsNotice']],
		['an emoji', 'Sale 😀', ['ucs2Notice']],
		[
			'an emoji, 71 characters: 2 parts',
			`😀${'a'.repeat(69)}`,
			['ucs2Notice', 'longUcs2Text2PartsNotice'],
		],
		['a curly quote, long', '“'.repeat(200), ['ucs2Notice', 'longUcs2Text3PartsNotice']],
		['a GSM extension character', 'Price: 5€ [today] {name}', []],
		['an expression with an emoji, known only when it runs', '={{ "😀" + $json.name }}', []],
		['a long expression, known only when it runs', `={{ "${'a'.repeat(170)}" }}`, []],
	])('%s: %j', (_, message, expected) => {
		expect(shown(message)).toEqual(expected);
	});

	it('says how many SMS the text is billed as, and whether it is sent at the Max Parts it shows', () => {
		const notice = notices.find((property) => property.name === 'longText3PartsNotice');
		expect(notice?.displayName).toBe(
			"Over 160 characters: 3 parts of 153 characters as written, billed as 3 SMS per recipient. Sent, unless Options > Max Parts per Message is set below 3 (without it, texts of up to 6 parts are sent). Dry Run shows each recipient's parts and cost.",
		);
		const over = notices.find((property) => property.name === 'longText7PartsNotice');
		expect(over?.displayName).toContain(
			'7 or more parts of 153 characters as written, each billed as one SMS. Refused before sending: texts of up to 6 parts are sent unless Options > Max Parts per Message allows more.',
		);
	});
});
