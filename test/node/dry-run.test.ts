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
			'Dry run, nothing was sent: 3 SMS (3 parts) would go out, estimated cost 2.4 at 0.8 per part.',
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
			'Dry run, nothing was sent: 2 SMS (4 parts) would go out, cost unknown: set Price per Part to estimate it.',
		]);
	});

	it('stops on a bad item as a send would, naming it; with Continue On Fail it lists it', async () => {
		const withBad = jsonItems(
			{ phone: '+254700000001', name: 'Amina' },
			{ phone: '12', name: 'Brian' },
		);
		const stopped = await env.run(dryRun(), withBad);
		expect(stopped.error?.message).toMatch(/item 2/i);
		expect(stopped.error?.message).toMatch(/Recipient/);
		expect(changingRequests(env)).toEqual([]);

		const listed = await env.run(dryRun({ pricePerPart: 1 }), withBad, { continueOnFail: true });
		expect(listed.error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(listed.items.map(({ json }) => (json.dryRun ? 'would send' : 'error'))).toEqual([
			'would send',
			'error',
		]);
		expect(hintsOf(listed.run)).toEqual([
			'Dry run, nothing was sent: 1 SMS (1 part) would go out, estimated cost 1 at 1 per part; 1 item refused (see the output).',
		]);
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
			invoiceSend({ pricePerMessage: 0.05 }),
			await invoices(),
		);
		expect(error).toBeUndefined();
		expect(changingRequests(env)).toEqual([]);
		expect(items.map(({ json }) => json)).toEqual([
			expect.objectContaining({
				dryRun: true,
				recipient: '+254700300001',
				templateName: 'invoice',
				templateId: TEMPLATES.documentHeader.id,
				headerFile: 'from the input item, uploaded when sent',
				componentList: {
					components: [{ component_type: 'BODY', fields: [{ name: '1', value: 'INV-1' }] }],
				},
				estimatedCost: 0.05,
			}),
			expect.objectContaining({ dryRun: true, recipient: '+254700300002' }),
		]);
		expect(items[0].json).not.toHaveProperty('messageId');
		expect(hintsOf(run)).toEqual([
			'Dry run, nothing was sent: 2 template messages would go out, estimated cost 0.1 at 0.05 per message.',
		]);
	});

	it('stops on an item whose template is not approved, with nothing sent', async () => {
		const { error } = await env.run(
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
		expect(error?.message).toMatch(/item 2/i);
		expect(error?.message).toMatch(/not approved|PENDING/i);
		expect(changingRequests(env)).toEqual([]);
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
	const shown = (message: string) =>
		properties
			.filter((property) => property.name === 'longTextNotice' || property.name === 'ucs2Notice')
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
		['161 GSM characters', 'a'.repeat(161), ['longTextNotice']],
		['an emoji', 'Sale 😀', ['ucs2Notice']],
		['a curly quote, long', '“'.repeat(200), ['ucs2Notice']],
		['a GSM extension character', 'Price: 5€ [today] {name}', []],
		['an expression with an emoji, known only when it runs', '={{ "😀" + $json.name }}', []],
		['a long expression, known only when it runs', `={{ "${'a'.repeat(170)}" }}`, []],
	])('%s: %j', (_, message, expected) => {
		expect(shown(message)).toEqual(expected);
	});
});
