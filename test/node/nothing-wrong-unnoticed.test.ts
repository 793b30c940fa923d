import { NodeHelpers } from 'n8n-workflow';
import { SENDERS, TEMPLATES } from '../sandbox';
import { binaryItem } from '../harness';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { parseFieldId } from '../../nodes/SmsLeopard/actions/message/field-ids';
import {
	changingRequests,
	jsonItems,
	smsSendParameters,
	templateSendParameters,
	useNodeEnv,
} from './support';

/**
 * Nothing wrong goes out unnoticed: fields mapped for another template, a same-for-everyone text
 * with {placeholders}, and what each recipient got, said in the output. Every refusal comes in the
 * pre-send pass: nothing is sent when any item is refused.
 */
const env = useNodeEnv();

const templateSend = templateSendParameters;

/**
 * Values to Send as n8n's editor saves them for the template `built`: the fields it showed, and
 * the values under those fields' ids (`body_1` given here is saved as `body_1_t<its tag>`).
 */
async function mappedFields(built: string, values: Record<string, string>) {
	const { fields } = await env.resourceMapping('getTemplateFields', templateSend(built));
	const value = Object.fromEntries(
		Object.entries(values).map(([id, text]) => [
			fields.find((field) => parseFieldId(field.id)?.base === id)?.id ?? id,
			text,
		]),
	);
	return { mappingMode: 'defineBelow', value, schema: fields };
}

describe('Values to Send belong to the template they were mapped for', () => {
	const values = { body_1: '={{ $json.name }}', body_2: '20%' };
	// Every field promo needs is filled (n8n itself refuses to run an empty required field).
	const promoValues = { ...values, button_1_url: 'SALE20' };

	it('refuses fields mapped for another template before anything is sent, naming both', async () => {
		const templateFields = await mappedFields(TEMPLATES.mixedButtons.id, promoValues);
		const { error } = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, { templateFields }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }, { phone: '+254700500002', name: 'Bo' }),
		);
		expect(error?.message).toContain(
			'"Values to Send" were mapped for template "promo" (tpl_promo), not for the chosen template "order_update" (tpl_order_update)',
		);
		expect(error?.message).toContain(
			'open the node and click Refresh Field List (the ⋮ menu of Values to Send), which drops the values mapped for the other text, then fill in the fields of "order_update"',
		);
		expect(changingRequests(env)).toEqual([]);
		expect(error?.description).toContain('Sent: none.');
	});

	it('refuses fields whose labels quote an older text of the same template', async () => {
		const templateFields = await mappedFields(TEMPLATES.bodyOnly.id, values);
		// The template was edited in the dashboard after the workflow was saved.
		const listed = env.sandbox.state.templates[Number(SENDERS.primary.id)];
		const edited = listed.find((template) => template.id === TEMPLATES.bodyOnly.id);
		if (!edited) throw new Error('the sandbox lists order_update');
		edited.message = 'Hi {{1}}, order {{2}} was cancelled.';
		const { error } = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, { templateFields }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(error?.message).toContain(
			'were mapped for another template, or an older text of this one (they quote "Hi {{1}}, your order {{2}} has shipped.…")',
		);
		expect(changingRequests(env)).toEqual([]);
	});

	it('a listing kept from an earlier execution never refuses fields mapped for the new text', async () => {
		// An execution keeps order_update's listing; then the template is edited in the dashboard and
		// the marketer maps its fields again (the editor lists afresh).
		const before = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, {
				templateFields: await mappedFields(TEMPLATES.bodyOnly.id, values),
			}),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(before.error).toBeUndefined();
		const listed = env.sandbox.state.templates[Number(SENDERS.primary.id)];
		const edited = listed.find((template) => template.id === TEMPLATES.bodyOnly.id);
		if (!edited) throw new Error('the sandbox lists order_update');
		edited.message = 'Hi {{1}}, order {{2}} is on its way.';
		const templateFields = await mappedFields(TEMPLATES.bodyOnly.id, values);
		const after = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, { templateFields }),
			jsonItems({ phone: '+254700500002', name: 'Bo' }),
		);
		expect(after.error).toBeUndefined();
		expect(after.items[0].json.bodyText).toBe('Hi Bo, order 20% is on its way.');
		expect(env.sends()).toHaveLength(2);
	});

	it('sends fields mapped for the chosen template, and fields saved without their list', async () => {
		const matching = await mappedFields(TEMPLATES.bodyOnly.id, values);
		const ok = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, { templateFields: matching }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(ok.error).toBeUndefined();
		expect(ok.items[0].json.bodyText).toBe('Hi Amina, your order 20% has shipped.');
		// A workflow written by hand (or by an API) saves no fields: nothing to compare, it sends.
		const handWritten = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, {
				templateFields: { mappingMode: 'defineBelow', value: values },
			}),
			jsonItems({ phone: '+254700500002', name: 'Bo' }),
		);
		expect(handWritten.error).toBeUndefined();
		expect(env.sends()).toHaveLength(2);
	});

	it('Dry Run lists such an item as would be refused, with the fix', async () => {
		const templateFields = await mappedFields(TEMPLATES.mixedButtons.id, promoValues);
		const { items, error } = await env.run(
			templateSend(TEMPLATES.bodyOnly.id, { templateFields, dryRun: true }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			outcome: 'would be refused',
			fields: ['Values to Send'],
			reason: expect.stringContaining('were mapped for template "promo"'),
		});
		expect(changingRequests(env)).toEqual([]);
	});
});

describe('a same-for-everyone SMS with {placeholders}', () => {
	it.each([
		['{word} placeholders', 'Dear {name}, your order {orderId} is ready', '{name}, {orderId}'],
		['a dotted field', 'Your order {order.id} is ready', '{order.id}'],
		['an expression typed without =', 'Dear {{ $json.name }}, welcome', '{{ $json.name }}'],
	])(
		'refuses %s before anything is sent, naming them and both ways out',
		async (_, text, named) => {
			const { error } = await env.run(
				smsSendParameters({ message: text }),
				jsonItems({ phone: '+254700500001', name: 'Amina', orderId: 'A-1' }),
			);
			expect(error?.message).toContain(`"Message" has ${named}, which every recipient would get`);
			expect(error?.message).toContain('choose "Customized per Recipient" under Text');
			expect(error?.message).toContain('or write the text as an expression');
			expect(error?.message).toContain('turn on Options > Send Braces as Written');
			expect(changingRequests(env)).toEqual([]);
		},
	);

	it('sends the braces as written when Send Braces as Written is on', async () => {
		const { items, error } = await env.run(
			smsSendParameters({
				message: 'Reply {STOP} to opt out',
				smsOptions: { sendBracesAsWritten: true },
			}),
			jsonItems({ phone: '+254700500001' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.message).toBe('Reply {STOP} to opt out');
		expect(env.sandbox.state.smsMessages).toHaveLength(1);
	});

	it('fills them with Customized per Recipient, and an expression is not refused', async () => {
		const customized = await env.run(
			smsSendParameters({ textMode: 'customized', message: 'Dear {name}' }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(customized.items[0].json.message).toBe('Dear Amina');
		const expression = await env.run(
			smsSendParameters({ message: '={{ "Dear " + $json.name }}' }),
			jsonItems({ phone: '+254700500001', name: 'Amina' }),
		);
		expect(expression.error).toBeUndefined();
		expect(expression.items[0].json.message).toBe('Dear Amina');
	});

	it('no field hint suggests a text that would be refused', () => {
		const message = new SmsLeopard().description.properties.find(
			(property) => property.name === 'message',
		);
		expect(message?.placeholder).not.toMatch(/\{/);
	});
});

describe('what went out, in the output of Send Template', () => {
	it('shows the filled body, the header text, and each button as filled', async () => {
		const welcome = await env.run(
			templateSend(TEMPLATES.textHeader.id, {
				templateFields: {
					mappingMode: 'defineBelow',
					value: { header_1: 'Amina', body_1: 'Amina', body_2: 'Duka Bora' },
				},
			}),
			jsonItems({ phone: '+254700500001' }),
		);
		expect(welcome.items[0].json).toMatchObject({
			header: { kind: 'text', text: 'Welcome Amina!' },
			headerText: 'Welcome Amina!',
			bodyText: 'Hello Amina, thanks for joining Duka Bora.',
		});
		const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(512, 7)]);
		const promo = await env.run(
			templateSend(TEMPLATES.mixedButtons.id, {
				templateFields: {
					mappingMode: 'defineBelow',
					value: {
						body_1: 'Amina',
						body_2: '20%',
						button_0_payload: 'stop-7',
						button_1_url: 'SALE20',
					},
				},
				headerMedia: 'binary',
				binaryPropertyName: 'banner',
			}),
			[await binaryItem({ phone: '+254700500001' }, 'banner', png, 'banner.png', 'image/png')],
		);
		expect(promo.error).toBeUndefined();
		const uploaded = env.sandbox.state.media[0];
		expect(promo.items[0].json).toMatchObject({
			// The image header as sent: its kind, the file uploaded and the media ID it got.
			header: { kind: 'image', fileName: 'banner.png', mediaId: uploaded.media_id },
			bodyText: 'Hi Amina, 20% off today only.',
			buttons: [
				{ text: 'Stop promotions', kind: 'quickReply', payload: 'stop-7' },
				{ text: 'Shop now', kind: 'url', url: 'https://shop.example.com/promo/SALE20' },
				{ text: 'Call', kind: 'phoneNumber' },
			],
		});
	});

	it("shows a document header's file name as sent, and an authentication code", async () => {
		const pdf = Buffer.from('%PDF-1.4\n' + 'offers '.repeat(50));
		const invoice = await env.run(
			templateSend(TEMPLATES.documentHeader.id, {
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: 'INV-9', document_file_name: 'Duka Bora offers.pdf' },
				},
				headerMedia: 'binary',
				binaryPropertyName: 'offers',
			}),
			[
				await binaryItem(
					{ phone: '+254700500001' },
					'offers',
					pdf,
					'offers.pdf',
					'application/pdf',
				),
			],
		);
		expect(invoice.error).toBeUndefined();
		expect(invoice.items[0].json).toMatchObject({
			header: {
				kind: 'document',
				fileName: 'Duka Bora offers.pdf',
				mediaId: env.sandbox.state.media[0].media_id,
			},
			headerFile: 'Duka Bora offers.pdf',
			bodyText: 'Invoice INV-9 is attached.',
		});
		expect(env.sends()[0]).toMatchObject({ file_name: 'Duka Bora offers.pdf' });
		const otp = await env.run(
			templateSend(TEMPLATES.authCode.id, {
				templateFields: { mappingMode: 'defineBelow', value: { auth_code: '845120' } },
			}),
			jsonItems({ phone: '+254700500001' }),
		);
		expect(otp.error).toBeUndefined();
		expect(otp.items[0].json.bodyText).toMatch(/^\*845120\* is your verification code/);
		// No header, no currency that would read as "none": the cost's currency is said in a hint.
		expect(otp.items[0].json).not.toHaveProperty('header');
		expect(otp.items[0].json).not.toHaveProperty('currency');
		// The code also fills the copy-code button's link, as Meta lists it.
		expect(otp.items[0].json.buttons).toEqual([
			{
				text: 'Copy code',
				kind: 'url',
				url: 'https://www.whatsapp.com/otp/code/?otp_type=COPY_CODE&code=otp845120',
			},
		]);
	});
});

describe('words', () => {
	it('the canvas subtitle names each operation in words', () => {
		const { subtitle, properties } = new SmsLeopard().description;
		const table = JSON.parse(/^=\{\{ (\{.*\})\[/.exec(subtitle ?? '')?.[1] ?? '{}') as Record<
			string,
			string
		>;
		const operations = properties
			.filter((property) => property.name === 'operation')
			.flatMap((property) =>
				(property.options ?? []).map(
					(option) =>
						`${String(property.displayOptions?.show?.resource)}:${String((option as { value: string }).value)}`,
				),
			);
		expect(Object.keys(table).sort()).toEqual(operations.sort());
		expect(table['message:sendSms']).toBe('Send an SMS');
		expect(Object.values(table).every((words) => /^[A-Z][a-z]+ [a-z]/.test(words))).toBe(true);
	});

	it('Price per Part survives turning Dry Run off and on (n8n drops a hidden value)', () => {
		const { properties } = new SmsLeopard().description;
		const saved = NodeHelpers.getNodeParameters(
			properties,
			{ resource: 'message', operation: 'sendSms', dryRun: false, pricePerPart: 0.8 },
			false,
			false,
			null,
			null,
		);
		expect(saved?.pricePerPart).toBe(0.8);
	});

	it('names a missing binary field with one numbering, never n8n\'s own "[item 1]"', async () => {
		const { error } = await env.run(
			{
				...templateSend(TEMPLATES.documentHeader.id, {
					templateFields: { mappingMode: 'defineBelow', value: { body_1: 'INV-1' } },
				}),
				headerMedia: 'binary',
				binaryPropertyName: 'invoice',
			},
			jsonItems({ phone: '+254700500001' }, { phone: '+254700500002' }),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 1: "Input Binary Field" names "invoice", but the item has no file/,
		);
		expect(error?.message).not.toMatch(/\[item|index/);
		expect(changingRequests(env)).toEqual([]);
	});
});
