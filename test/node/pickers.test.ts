import { SENDERS, TEMPLATES } from '../sandbox';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { parseFieldId } from '../../nodes/SmsLeopard/actions/message/field-ids';
import { type NodeEnv, jsonItems, senderLocator, startNodeEnv, templateLocator } from './support';

let env: NodeEnv;

beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());

const sendParameters = (templateId: string) => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(templateId),
});

describe('sender and template pickers (list search)', () => {
	it('lists sender numbers by number and phone_number_id, valued by phone_number_id', async () => {
		const { results } = await env.listSearch('searchSenderNumbers', {
			resource: 'message',
			operation: 'sendTemplate',
		});
		expect(results).toEqual([
			{ name: '+254700000001 (phone number ID 110000000000001)', value: '110000000000001' },
			{ name: '+254700000002 (phone number ID 110000000000002)', value: '110000000000002' },
		]);
		const filtered = await env.listSearch('searchSenderNumbers', {}, '0002');
		expect(filtered.results.map((result) => result.value)).toEqual([
			SENDERS.secondary.phone_number_id,
		]);
	});

	it('lists only the approved templates of the chosen sender, searchable', async () => {
		const { results } = await env.listSearch('searchTemplates', sendParameters(''));
		const values = results.map((result) => result.value);
		expect(values).toContain(TEMPLATES.bodyOnly.id);
		expect(values).not.toContain(TEMPLATES.pending.id);
		expect(values).not.toContain(TEMPLATES.rejected.id);
		expect(results.find((result) => result.value === TEMPLATES.bodyOnly.id)?.name).toBe(
			'order_update (en_US, UTILITY): 2 variables',
		);
		const search = await env.listSearch('searchTemplates', sendParameters(''), 'authentication');
		expect(search.results.map((result) => result.value)).toEqual([TEMPLATES.authCode.id]);
	});

	it('says what each template needs (header kind, variables, buttons), and finds templates by it', async () => {
		const { results } = await env.listSearch('searchTemplates', sendParameters(''));
		const nameOf = (id: string) => results.find((result) => result.value === id)?.name;
		expect(nameOf(TEMPLATES.documentHeader.id)).toMatch(/: document header, \d+ variables?/);
		expect(nameOf(TEMPLATES.imageHeader.id)).toMatch(/: image header, /);
		expect(nameOf(TEMPLATES.quickReplies.id)).toMatch(/\d+ quick repl(y|ies)$/);
		expect(nameOf(TEMPLATES.phoneButton.id)).toMatch(/1 call button/);
		expect(nameOf(TEMPLATES.flow.id)).toMatch(/: no variables, 1 Flow button$/);
		expect(nameOf(TEMPLATES.authCode.id)).toMatch(/: one-time code$/);
		const documents = await env.listSearch(
			'searchTemplates',
			sendParameters(''),
			'document header',
		);
		expect(documents.results.map((result) => result.value)).toContain(TEMPLATES.documentHeader.id);
		expect(documents.results.map((result) => result.value)).not.toContain(TEMPLATES.bodyOnly.id);
		const urlButtons = await env.listSearch('searchTemplates', sendParameters(''), 'url button');
		expect(urlButtons.results.length).toBeGreaterThan(0);
		for (const result of urlButtons.results) expect(result.name).toContain('URL button');
	});

	it('names the mix-up when a sender record id is given instead of its phone_number_id', async () => {
		await expect(
			env.listSearch('searchTemplates', {
				...sendParameters(''),
				senderNumber: { __rl: true, mode: 'id', value: '1' },
			}),
		).rejects.toThrow(
			`"1" is the record ID of sender +254700000001, not its phone_number_id: use 110000000000001`,
		);
	});
});

describe('template fields (resource mapper)', () => {
	const taggedFieldsOf = async (templateId: string, extra: Record<string, unknown> = {}) =>
		(await env.resourceMapping('getTemplateFields', { ...sendParameters(templateId), ...extra }))
			.fields;
	/** The fields with their ids as the node reads them, without the template's tag. */
	const fieldsOf = async (templateId: string) =>
		(await taggedFieldsOf(templateId)).map((field) => ({
			...field,
			id: parseFieldId(field.id)?.base ?? field.id,
		}));

	it("tags every field id with its template and text, so n8n's Refresh drops another's values", async () => {
		const order = (await taggedFieldsOf(TEMPLATES.bodyOnly.id)).map((field) => field.id);
		const welcome = (await taggedFieldsOf(TEMPLATES.textHeader.id)).map((field) => field.id);
		expect(order).toEqual([
			expect.stringMatching(/^body_1_t[0-9a-f]{8}$/),
			expect.stringMatching(/^body_2_t[0-9a-f]{8}$/),
		]);
		// body_2 of welcome ("Leopard Shop") is not body_2 of order_update.
		const welcomeBody2 = welcome.find((id) => id.startsWith('body_2_'));
		expect(welcomeBody2).toBeDefined();
		expect(order).not.toContain(welcomeBody2);
		// Another text of the same template is another id.
		const listed = env.sandbox.state.templates[Number(SENDERS.primary.id)];
		const edited = listed.find((template) => template.id === TEMPLATES.bodyOnly.id);
		if (!edited) throw new Error('the sandbox lists order_update');
		edited.message = 'Hi {{1}}, order {{2}} was cancelled.';
		const after = (await taggedFieldsOf(TEMPLATES.bodyOnly.id)).map((field) => field.id);
		expect(after.map((id) => parseFieldId(id)?.base)).toEqual(['body_1', 'body_2']);
		expect(after[0]).not.toBe(order[0]);
		env.sandbox.reset();
	});

	it('keeps the ids of an earlier version while the values saved under them fit the template', async () => {
		const mapped = (schema: unknown) => ({
			templateFields: {
				mappingMode: 'defineBelow',
				value: { body_1: 'Amina', body_2: 'A-1' },
				...(schema ? { schema } : {}),
			},
		});
		const ofOrder = [
			{ id: 'body_1', displayName: 'Body {{1}} · "Hi {{1}}, your order {{2}} has shipped."' },
			{ id: 'body_2', displayName: 'Body {{2}} · "Hi {{1}}, your order {{2}} has shipped."' },
		];
		const ids = async (templateId: string, extra: Record<string, unknown>) =>
			(await taggedFieldsOf(templateId, extra)).map((field) => field.id);
		// Saved for order_update (or by hand, without fields): opened or refreshed, the values stay.
		expect(await ids(TEMPLATES.bodyOnly.id, mapped(ofOrder))).toEqual(['body_1', 'body_2']);
		expect(await ids(TEMPLATES.bodyOnly.id, mapped(undefined))).toEqual(['body_1', 'body_2']);
		// Saved for order_update, now welcome is chosen: tagged ids, so n8n drops the old values.
		expect(await ids(TEMPLATES.textHeader.id, mapped(ofOrder))).toEqual([
			expect.stringMatching(/^header_1_t/),
			expect.stringMatching(/^body_1_t/),
			expect.stringMatching(/^body_2_t/),
		]);
	});

	it('asks for each body placeholder with the body as a hint', async () => {
		const fields = await fieldsOf(TEMPLATES.bodyOnly.id);
		expect(fields.map((field) => [field.id, field.required])).toEqual([
			['body_1', true],
			['body_2', true],
		]);
		expect(fields[0].displayName).toBe('Body {{1}}: "Hi {{1}}, your order {{2}} has shipped."');
	});

	it('asks for a text header variable', async () => {
		expect((await fieldsOf(TEMPLATES.textHeader.id)).map((field) => field.id)).toEqual([
			'header_1',
			'body_1',
			'body_2',
		]);
	});

	it.each([
		['document', TEMPLATES.documentHeader.id],
		['image', TEMPLATES.imageHeader.id],
		['video', TEMPLATES.videoHeader.id],
	])(
		'asks for the %s header media in one place, Header Media, not with the template fields',
		async (_kind, templateId) => {
			const fields = await fieldsOf(templateId);
			expect(fields.map((field) => field.id)).not.toContain('header_media');
			expect(fields.filter((field) => /media/i.test(field.displayName))).toEqual([]);
		},
	);

	it('asks for the URL placeholder value only, with the URL pattern shown (rule 3)', async () => {
		const fields = await fieldsOf(TEMPLATES.urlButton.id);
		expect(fields[1]).toMatchObject({ id: 'button_0_url', required: true });
		expect(fields[1].displayName).toBe('Button "Track": end of its link, after …/track/');
	});

	it('offers optional quick reply payloads (rule 5) and no input for phone and Flow buttons', async () => {
		const mixed = await fieldsOf(TEMPLATES.mixedButtons.id);
		expect(mixed.map((field) => field.id)).toEqual([
			'body_1',
			'body_2',
			'button_0_payload',
			'button_1_url',
		]);
		// The editor draws every field as an input box: nothing read-only is listed.
		expect(mixed.filter((field) => field.readOnly)).toEqual([]);
		expect(mixed.find((field) => field.id === 'button_0_payload')?.required).toBe(false);
		expect(mixed.find((field) => field.id === 'button_0_payload')?.displayName).toBe(
			'Button "Stop promotions": quick reply payload (optional)',
		);
		const flow = await env.resourceMapping('getTemplateFields', sendParameters(TEMPLATES.flow.id));
		expect(flow.fields).toEqual([]);
		expect(flow.emptyFieldsNotice).toBe(
			'Template "book_flow" has nothing to fill in: it is sent as approved.',
		);
	});

	it('names the template and the sender as their pickers show them', async () => {
		const result = await env.resourceMapping('getTemplateFields', {
			...sendParameters(TEMPLATES.urlButton.id),
			template: {
				...templateLocator(TEMPLATES.urlButton.id),
				cachedResultName: 'track_parcel (en_US, UTILITY)',
			},
			senderNumber: {
				__rl: true,
				mode: 'list',
				value: SENDERS.secondary.phone_number_id,
				cachedResultName: 'Second line',
			},
		});
		expect(result.emptyFieldsNotice).toBe(
			'The template chosen before, track_parcel (en_US, UTILITY), is not an approved template of sender Second line: choose the template again from the list.',
		);
	});

	it('says the template is not the new sender\'s after the sender changed, not "no variables"', async () => {
		const result = await env.resourceMapping('getTemplateFields', {
			...sendParameters(TEMPLATES.urlButton.id),
			senderNumber: { __rl: true, mode: 'list', value: SENDERS.secondary.phone_number_id },
		});
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toBe(
			`The template chosen before, ${TEMPLATES.urlButton.id}, is not an approved template of sender ${SENDERS.secondary.phone_number_id}: choose the template again from the list.`,
		);
	});

	it('asks once for an authentication code (rule 11)', async () => {
		expect(await fieldsOf(TEMPLATES.authCode.id)).toEqual([
			expect.objectContaining({
				id: 'auth_code',
				required: true,
				displayName: 'Authentication code (body and copy-code button)',
			}),
		]);
	});

	it('keeps every label short enough for one line of the editor', async () => {
		for (const template of Object.values(TEMPLATES)) {
			for (const field of await fieldsOf(template.id).catch(() => [])) {
				expect({ id: field.id, length: field.displayName.length <= 56 }).toEqual({
					id: field.id,
					length: true,
				});
			}
		}
	});

	it("Using JSON: shows the chosen template's component_list with empty values to start from", async () => {
		const promo = await env.resourceMapping(
			'getTemplateSkeleton',
			sendParameters(TEMPLATES.mixedButtons.id),
		);
		expect(promo.fields).toEqual([]);
		expect(promo.emptyFieldsNotice).toBe(
			'Start from template "promo": copy this into Components (JSON) and fill in each value. ' +
				JSON.stringify({
					components: [
						{
							component_type: 'BODY',
							fields: [
								{ name: '1', value: '' },
								{ name: '2', value: '' },
							],
						},
						{
							component_type: 'BUTTONS',
							fields: [
								{ name: 'quick_reply:0', value: '' },
								{ name: 'url:1', value: '' },
							],
						},
					],
				}),
		);
		const flow = await env.resourceMapping(
			'getTemplateSkeleton',
			sendParameters(TEMPLATES.flow.id),
		);
		expect(flow.emptyFieldsNotice).toBe(
			'Template "book_flow" has nothing to fill in: leave Components (JSON) as {"components": []}.',
		);
	});

	it('tells the user to choose a template first', async () => {
		const result = await env.resourceMapping('getTemplateFields', {
			...sendParameters(''),
			senderNumber: { __rl: true, mode: 'list', value: '' },
			template: templateLocator(''),
		});
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toContain('Choose a sender number and a template first');
	});

	it('after the sender changed (n8n then clears the template), says why the template is empty', async () => {
		const result = await env.resourceMapping('getTemplateFields', sendParameters(''));
		expect(result.fields).toEqual([]);
		expect(result.emptyFieldsNotice).toBe(
			'Choose a template of this sender from the list. Changing the sender clears the template and the values typed for it, since each sender has its own templates.',
		);
	});

	it('the Template picker depends on the sender, so n8n clears it when the sender changes', () => {
		const template = new SmsLeopard().description.properties.find(
			(property) => property.name === 'template',
		);
		expect(template?.typeOptions?.loadOptionsDependsOn).toEqual(['senderNumber.value']);
	});
});

describe('Sender Number and Template > Get Many', () => {
	it('lists sender numbers', async () => {
		const { items } = await env.run(
			{ resource: 'senderNumber', operation: 'getAll' },
			jsonItems({}),
		);
		expect(items.map((item) => item.json.phone_number_id)).toEqual([
			SENDERS.primary.phone_number_id,
			SENDERS.secondary.phone_number_id,
		]);
	});

	it('lists approved templates with what they need', async () => {
		const { items } = await env.run(
			{ resource: 'template', operation: 'getAll', senderNumber: senderLocator },
			jsonItems({}),
		);
		const invoice = items.find((item) => item.json.id === TEMPLATES.documentHeader.id);
		expect(invoice?.json).toMatchObject({ headerFormat: 'DOCUMENT', bodyPlaceholders: [1] });
		expect(items.some((item) => item.json.id === TEMPLATES.pending.id)).toBe(false);
		const all = await env.run(
			{
				resource: 'template',
				operation: 'getAll',
				senderNumber: senderLocator,
				approvedOnly: false,
			},
			jsonItems({}),
		);
		expect(all.items.some((item) => item.json.id === TEMPLATES.pending.id)).toBe(true);
	});
});
