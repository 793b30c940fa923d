import { SENDERS, TEMPLATES } from '../sandbox';
import { uploadMedia } from '../sandbox/test-helpers';
import { jsonItems, senderLocator, templateLocator, useNodeEnv } from './support';

const env = useNodeEnv();

const base = {
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	destination: '={{ $json.phone }}',
};

describe('Message > Send Template in the real n8n engine', () => {
	it('Define mode: one send per item, variables from expressions, outputs paired to inputs', async () => {
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.bodyOnly.id),
				variablesMode: 'define',
				bodyVariables: {
					variable: [
						{ placeholder: 1, value: '={{ $json.name }}' },
						{ placeholder: 2, value: '={{ $json.order }}' },
					],
				},
			},
			jsonItems(
				{ phone: '+254700200001', name: 'Amina', order: 'A-1' },
				{ phone: '0700200002', name: 'Brian', order: 'A-2' },
				{ phone: '254700200003', name: 'Cynthia', order: 'A-3' },
			),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		items.forEach((item, index) => {
			expect(item.pairedItem).toEqual({ item: index });
			expect(item.json).toMatchObject({
				messageId: expect.any(String),
				status: 'Success',
				templateId: TEMPLATES.bodyOnly.id,
				phoneNumberId: SENDERS.primary.phone_number_id,
			});
		});
		expect(items.map((item) => item.json.number)).toEqual([
			'+254700200001',
			'+254700200002',
			'+254700200003',
		]);
		expect(env.sends()[1]).toMatchObject({
			destination: '0700200002',
			component_list: {
				components: [
					{
						component_type: 'BODY',
						fields: [
							{ name: '1', value: 'Brian' },
							{ name: '2', value: 'A-2' },
						],
					},
				],
			},
		});
	});

	it('outputs one flat row per item: recipient as given and normalised, template name, cost, no nested columns', async () => {
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.bodyOnly.id),
				variablesMode: 'define',
				bodyVariables: {
					variable: [
						{ placeholder: 1, value: 'Brian' },
						{ placeholder: 2, value: 'A-2' },
					],
				},
			},
			jsonItems({ phone: '0700200002' }),
		);
		expect(error).toBeUndefined();
		const [sent] = env.sandbox.state.sentMessages;
		expect(items[0].json).toEqual({
			// The input item's fields come along (Include Input Fields, on by default in 1.2).
			phone: '0700200002',
			outcome: 'sent',
			recipient: '0700200002',
			number: '+254700200002',
			messageId: sent.id,
			status: 'Success',
			// What the recipient got: the template's text with the values in place.
			bodyText: 'Hi Brian, your order A-2 has shipped.',
			cost: expect.any(Number),
			templateName: TEMPLATES.bodyOnly.name,
			templateId: TEMPLATES.bodyOnly.id,
			phoneNumberId: SENDERS.primary.phone_number_id,
		});
	});

	it('adds the API answer as rawAnswer only with Include Raw Answer', async () => {
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.flow.id),
				variablesMode: 'define',
				requestOptions: { includeRawAnswer: true },
			},
			jsonItems({ phone: '+254700200001' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.rawAnswer).toEqual({
			recipients: [
				expect.objectContaining({ id: items[0].json.messageId, number: '+254700200001' }),
			],
		});
	});

	it('a wrong secret fails naming what the user was doing, not the listing that ran first', async () => {
		const { error } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.flow.id), variablesMode: 'define' },
			jsonItems({ phone: '+254700200001' }),
			{ apiSecret: 'wrong-secret-output-test-7731' },
		);
		expect(error?.message).toMatch(
			new RegExp(`^Sending template '${TEMPLATES.flow.id}' to \\+254700200001: .*HTTP 401`),
		);
		expect(error?.message).toContain('Check the API key and secret');
		expect(error?.description).toMatch(/^Item 1: SMSLeopard answered HTTP 401/);
		expect(JSON.stringify(error)).not.toContain('wrong-secret-output-test-7731');
		expect(env.sends()).toHaveLength(0);
	});

	it('with no input items, sends nothing and outputs nothing', async () => {
		const { items, error } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.flow.id), variablesMode: 'define' },
			[],
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(0);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('From the Template mode sends a URL button value and an authentication code', async () => {
		const parcel = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.urlButton.id),
				variablesMode: 'template',
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: '={{ $json.parcel }}', button_0_url: '={{ $json.parcel }}' },
				},
			},
			jsonItems({ phone: '+254700200001', parcel: 'PX-77' }),
		);
		expect(parcel.error).toBeUndefined();
		const otp = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.authCode.id),
				variablesMode: 'template',
				templateFields: { mappingMode: 'defineBelow', value: { auth_code: '={{ $json.code }}' } },
			},
			jsonItems({ phone: '+254700200001', code: '845120' }),
		);
		expect(otp.error).toBeUndefined();
		expect(env.sends()).toEqual([
			expect.objectContaining({
				component_list: {
					components: [
						{ component_type: 'BODY', fields: [{ name: '1', value: 'PX-77' }] },
						{ component_type: 'BUTTONS', fields: [{ name: 'url:0', value: 'PX-77' }] },
					],
				},
			}),
			expect.objectContaining({
				component_list: {
					components: [
						{ component_type: 'BODY', fields: [{ name: '1', value: '845120' }] },
						{ component_type: 'BUTTONS', fields: [{ name: '1', value: '845120' }] },
					],
				},
			}),
		]);
	});

	it.each([
		['1.1 counts button positions from 1', 1.1, { position: 2 }],
		['1 (saved workflows) still counts them from 0', 1, { index: 1 }],
	])(
		'Define Below, node version %s: the second quick reply goes out as quick_reply:1',
		async (_, typeVersion, position) => {
			const { error } = await env.run(
				{
					...base,
					template: templateLocator(TEMPLATES.quickReplies.id),
					variablesMode: 'define',
					bodyVariables: { variable: [{ placeholder: 1, value: 'Amina' }] },
					buttons: { button: [{ kind: 'quickReply', ...position, value: 'no-thanks' }] },
				},
				jsonItems({ phone: '+254700200001' }),
				{ typeVersion },
			);
			expect(error).toBeUndefined();
			expect(env.sends()[0]).toMatchObject({
				component_list: {
					components: [
						{ component_type: 'BODY', fields: [{ name: '1', value: 'Amina' }] },
						{ component_type: 'BUTTONS', fields: [{ name: 'quick_reply:1', value: 'no-thanks' }] },
					],
				},
			});
		},
	);

	it('JSON mode passes a hand-written component_list, validated and canonical', async () => {
		const { error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.quickReplies.id),
				variablesMode: 'json',
				componentList:
					'={{ JSON.stringify({ components: [{ component_type: "BODY", fields: [{ name: "1", value: $json.name }] }, { component_type: "BUTTONS", fields: [{ name: "quick-reply_0", value: "yes" }] }] }) }}',
			},
			jsonItems({ phone: '+254700200001', name: 'Amina' }),
		);
		expect(error).toBeUndefined();
		expect(env.sends()[0]).toMatchObject({
			component_list: {
				components: [
					{ component_type: 'BODY', fields: [{ name: '1', value: 'Amina' }] },
					{ component_type: 'BUTTONS', fields: [{ name: 'quick_reply:0', value: 'yes' }] },
				],
			},
		});
	});

	it('refuses a missing template variable before sending, naming the item and the field', async () => {
		const { error, items } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.bodyOnly.id),
				variablesMode: 'define',
				bodyVariables: { variable: [{ placeholder: 1, value: '={{ $json.name }}' }] },
			},
			jsonItems({ phone: '+254700200001', name: 'Amina' }),
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toContain('Invalid input in item 1:');
		expect(error?.message).toContain('"Body {{2}}" is required by template "order_update"');
		expect(error?.description).toContain('Nothing was sent for item 1');
		expect(env.sends()).toHaveLength(0);
	});

	it('refuses a value for a phone number button (rule 6) and a file name on a non-document header (rule 9)', async () => {
		const { error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.phoneButton.id),
				variablesMode: 'define',
				bodyVariables: { variable: [{ placeholder: 1, value: 'billing' }] },
				buttons: { button: [{ kind: 'url', index: 0, value: '+254799' }] },
			},
			jsonItems({ phone: '+254700200001' }),
		);
		expect(error?.message).toContain(
			'the first button ("Call us") is a phone number button, which cannot be changed',
		);
		const image = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.imageHeader.id),
				variablesMode: 'define',
				bodyVariables: { variable: [{ placeholder: 1, value: 'Amina' }] },
				headerMedia: 'mediaId',
				mediaId: '123',
				fileName: 'x.pdf',
			},
			jsonItems({ phone: '+254700200001' }),
		);
		expect(image.error?.message).toContain('"File Name" applies to document headers only');
		expect(env.sends()).toHaveLength(0);
	});

	it('a failing template listing is never cached as "no template": later items are still checked', async () => {
		// Six 503s: every attempt of item 0's listing (first try + 5 read retries) fails.
		env.sandbox.setOptions({ templateListingFailures: 6 });
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.bodyOnly.id),
				variablesMode: 'json',
				// Body {{1}}, and {{2}} only when the item has an order: item 1 lacks what the template needs.
				componentList:
					'={{ JSON.stringify({ components: [{ component_type: "BODY", fields: [{ name: "1", value: $json.name }].concat($json.order ? [{ name: "2", value: $json.order }] : []) }] }) }}',
				requestOptions: { concurrency: 1 },
			},
			jsonItems(
				{ phone: '+254700200001', name: 'Amina', order: 'A1' },
				{ phone: '+254700200002', name: 'Baraka' },
				{ phone: '+254700200003', name: 'Chui', order: 'C3' },
			),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		// Item 0: the listing never answered, so it failed clearly instead of going out unchecked.
		expect(items[0].json).toMatchObject({ errorKind: 'server', httpStatus: 503 });
		expect(JSON.stringify(items[0].json)).toContain('Template listing unavailable');
		// Item 1 asked again, got the listing, and was refused by the template check before sending.
		expect(JSON.stringify(items[1].json)).toContain('is required by template \\"order_update\\"');
		expect(items[2].json).toMatchObject({ messageId: expect.any(String) });
		expect(items[2].json.templateChecked).toBeUndefined();
		expect(env.sends().map((send) => send.destination)).toEqual(['+254700200003']);
	}, 40_000);

	it('an account without the template listing: sent unchecked, and the output says so', async () => {
		env.sandbox.setOptions({ noTemplateListing: true });
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.bodyOnly.id),
				variablesMode: 'json',
				componentList:
					'={{ JSON.stringify({ components: [{ component_type: "BODY", fields: [{ name: "1", value: "Amina" }, { name: "2", value: "A1" }] }] }) }}',
			},
			jsonItems({ phone: '+254700200001' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ messageId: expect.any(String), templateChecked: false });
	});

	it('still sends a media ID a saved workflow typed with the template fields; asks for it when missing ("an image")', async () => {
		const params = (value: Record<string, string>) => ({
			...base,
			template: templateLocator(TEMPLATES.imageHeader.id),
			variablesMode: 'template',
			templateFields: { mappingMode: 'defineBelow', value },
		});
		const missing = await env.run(
			params({ body_1: 'Amina' }),
			jsonItems({ phone: '+254700200001' }),
		);
		expect(missing.error?.message).toContain('template "new_arrivals" has an image header');
		expect(env.sends()).toHaveLength(0);
		const { media_id: mediaId } = await uploadMedia(env.sandbox, 'image/png', 'arrivals.png');
		const { error } = await env.run(
			params({ body_1: 'Amina', header_media: mediaId }),
			jsonItems({ phone: '+254700200001' }),
		);
		expect(error).toBeUndefined();
		expect(env.sends().map((send) => send.media_id)).toEqual([mediaId]);
	});

	it('refuses a line break in a text-header variable before sending, in fields and in JSON', async () => {
		const fields = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.textHeader.id),
				variablesMode: 'define',
				headerVariables: { variable: [{ placeholder: 1, value: '={{ $json.name }}' }] },
				bodyVariables: {
					variable: [
						{ placeholder: 1, value: 'Amina' },
						{ placeholder: 2, value: 'Club' },
					],
				},
			},
			jsonItems({ phone: '+254700200001', name: 'Amina\r\nBcc: everyone' }),
		);
		expect(fields.error?.message).toContain(
			'"Header {{1}}" is part of the header, which is one line',
		);
		const json = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.textHeader.id),
				variablesMode: 'json',
				componentList:
					'={{ JSON.stringify({ components: [{ component_type: "HEADER", fields: [{ name: "1", value: "A\\nB" }] }, { component_type: "BODY", fields: [{ name: "1", value: "A" }, { name: "2", value: "B" }] }] }) }}',
			},
			jsonItems({ phone: '+254700200001' }),
		);
		expect(json.error?.message).toContain(
			'"Header {{1}}" is part of the header, which is one line',
		);
		expect(env.sends()).toHaveLength(0);
	});

	it('From the Template mode refuses an object or a list as a value, as Define Below does', async () => {
		const { items } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.urlButton.id),
				variablesMode: 'template',
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: '={{ $json.parcel }}', button_0_url: '={{ $json.parcel }}' },
				},
			},
			jsonItems(
				{ phone: '+254700200001', parcel: { id: 'PX-77' } },
				{ phone: '+254700200002', parcel: ['PX', '77'] },
			),
			{ continueOnFail: true },
		);
		expect(JSON.stringify(items[0].json)).toContain(
			'Body {{1}}\\" must be text or a number, not an object',
		);
		expect(JSON.stringify(items[1].json)).toContain('must be text or a number, not a list');
		expect(JSON.stringify(items[0].json)).toContain('the first button (a link) must be text');
		expect(env.sends()).toHaveLength(0);
	});

	it('Continue On Fail: a bad item becomes an error item, the others are sent', async () => {
		const { items, error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.flow.id),
				variablesMode: 'define',
			},
			jsonItems({ phone: '+254700200001' }, { phone: 'call me maybe' }, { phone: '+254700200003' }),
			{ continueOnFail: true },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
		expect(items[1]).toEqual({
			json: expect.objectContaining({
				error: expect.stringContaining('"Recipient" is not a valid phone number'),
				errorKind: 'validation',
			}),
			pairedItem: { item: 1 },
		});
		expect(items[0].json.messageId).toEqual(expect.any(String));
		expect(items[2].json.messageId).toEqual(expect.any(String));
		expect(env.sends()).toHaveLength(2);
	});

	it('without Continue On Fail, an invalid item stops the run before anything is sent, naming the item', async () => {
		const { items, error } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.flow.id), variablesMode: 'define' },
			jsonItems(
				{ phone: '+254700200001' },
				{ phone: '+254700200002' },
				{ phone: 'nope' },
				{ phone: '+254700200004' },
			),
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toContain('Invalid input in item 3:');
		expect(env.sandbox.state.sentMessages).toEqual([]);
		expect(error?.description).toContain('Sent: none.');
		expect(error?.description).toContain('items 1-4; safe to run again');
	});

	it('an item whose template is not approved stops the run before anything is sent', async () => {
		const { error } = await env.run(
			{
				...base,
				template: { __rl: true, mode: 'id', value: '={{ $json.template }}' },
				variablesMode: 'define',
			},
			jsonItems(
				{ phone: '+254700200001', template: TEMPLATES.flow.id },
				{ phone: '+254700200002', template: TEMPLATES.pending.id },
				{ phone: '+254700200003', template: TEMPLATES.flow.id },
			),
		);
		expect(error?.message).toContain('item 2');
		expect(error?.message).toMatch(/approved/);
		expect(env.sandbox.state.sentMessages).toEqual([]);
		expect(error?.description).toContain('Sent: none.');
	});

	it('with one item at a time, nothing is sent either', async () => {
		const { error } = await env.run(
			{
				...base,
				template: templateLocator(TEMPLATES.flow.id),
				variablesMode: 'define',
				requestOptions: { concurrency: 1 },
			},
			jsonItems({ phone: '+254700200001' }, { phone: 'nope' }, { phone: '+254700200003' }),
		);
		expect(error?.message).toContain('Invalid input in item 2:');
		expect(env.sandbox.state.sentMessages).toEqual([]);
		expect(error?.description).toContain('Sent: none.');
	});

	it('keeps output order and pairing with many items in parallel', async () => {
		const phones = Array.from(
			{ length: 40 },
			(_, index) => `+2547003${String(index).padStart(5, '0')}`,
		);
		env.sandbox.setOptions({ latencyMs: 5 });
		try {
			const { items, error } = await env.run(
				{
					...base,
					template: templateLocator(TEMPLATES.flow.id),
					variablesMode: 'define',
					requestOptions: { concurrency: 8 },
				},
				jsonItems(...phones.map((phone) => ({ phone }))),
			);
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.number)).toEqual(phones);
			expect(items.map((item) => item.pairedItem)).toEqual(phones.map((_, item) => ({ item })));
		} finally {
			env.sandbox.setOptions({ latencyMs: 0 });
		}
	});

	it('reports a service refusal as an API error with HTTP status and code', async () => {
		const { error } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.pending.id), variablesMode: 'define' },
			jsonItems({ phone: '+254700200001' }),
		);
		expect(error?.message).toContain('Invalid input in item 1:');
		expect(error?.message).toMatch(/template ".*" is PENDING: only approved templates can be sent/);
		expect(env.sends()).toHaveLength(0);
	});

	it('a wrong API secret fails with an authentication error that holds no secret', async () => {
		const secret = 'wrong-secret-do-not-leak-4711';
		const { error, items } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.flow.id), variablesMode: 'define' },
			jsonItems({ phone: '+254700200001' }),
			{ apiSecret: secret },
		);
		expect(items).toHaveLength(0);
		expect(error?.message).toContain('HTTP 401');
		expect(error?.message).toContain('Check the API key and secret');
		expect(JSON.stringify(error)).not.toContain(secret);
		expect(JSON.stringify(error)).not.toContain(env.credentials.smsLeopardApi.apiSecret);
	});

	it('refuses a plain http:// URL that is not on this machine', async () => {
		const { error } = await env.run(
			{ ...base, template: templateLocator(TEMPLATES.flow.id), variablesMode: 'define' },
			jsonItems({ phone: '+254700200001' }),
			{ chatUrl: 'http://whatsapp.example.com' },
		);
		expect(error?.message).toContain('Chat API URL uses plain http://');
		expect(env.sandbox.requests).toHaveLength(0);
	});
});
