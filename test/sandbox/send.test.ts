import { startSandbox, TEMPLATES, SENDERS, type Sandbox } from './index';
import { body, call, header, send, sendPayload } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const orderUpdate = (extra: Record<string, unknown> = {}) =>
	sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'Ann'], ['2', 'A-17'])], extra);

describe('send: success', () => {
	it('answers 200 with one recipient and records the message', async () => {
		const res = await send(sb, orderUpdate());
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			recipients: [
				{
					id: expect.stringMatching(/^wamid\./),
					cost: 0.8,
					number: '+254712345678',
					status: 'Success',
				},
			],
		});
		expect(sb.state.sentMessages).toEqual([
			{
				id: res.body.recipients[0].id,
				destination: '+254712345678',
				templateId: 'tpl_order_update',
				phoneNumberId: '110000000000001',
				componentList: { components: [body(['1', 'Ann'], ['2', 'A-17'])] },
				at: expect.any(Number),
			},
		]);
	});

	it('gives every message a unique id and counts sends per destination', async () => {
		const a = await send(sb, orderUpdate());
		const b = await send(sb, orderUpdate());
		await send(sb, orderUpdate({ destination: '0798765432' }));
		expect(a.body.recipients[0].id).not.toBe(b.body.recipients[0].id);
		expect(sb.state.sendCountByDestination).toEqual({ '+254712345678': 2, '+254798765432': 1 });
	});

	it.each([
		['+254712345678', '+254712345678'],
		['254712345678', '+254712345678'],
		['0712345678', '+254712345678'],
		['0112345678', '+254112345678'],
		['+14155550123', '+14155550123'],
	])('accepts destination %s as %s', async (destination, international) => {
		const res = await send(sb, orderUpdate({ destination }));
		expect(res.status).toBe(200);
		expect(res.body.recipients[0].number).toBe(international);
	});

	it('ignores unknown top-level fields', async () => {
		expect((await send(sb, orderUpdate({ priority: 'high' }))).status).toBe(200);
	});

	it('accepts an empty components array for a template without variables', async () => {
		const res = await send(sb, sendPayload(TEMPLATES.flow.id, []));
		expect(res.status).toBe(200);
	});

	it('sends from the second sender with its own templates', async () => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.s2Thanks.id, [body(['1', 'Bo'])], {
				phone_number_id: SENDERS.secondary.phone_number_id,
			}),
		);
		expect(res.status).toBe(200);
	});
});

describe('send: request shape', () => {
	it('requires application/json', async () => {
		const res = await call(`${sb.chatUrl}/v1/whatsapp/send`, {
			method: 'POST',
			body: JSON.stringify(orderUpdate()),
			headers: { 'content-type': 'text/plain' },
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			error_code: 'bad_request',
			error_message: expect.stringContaining('application/json'),
			status_code: 400,
		});
	});

	it('refuses invalid JSON and non-object bodies', async () => {
		const bad = await call(`${sb.chatUrl}/v1/whatsapp/send`, {
			method: 'POST',
			body: '{"destination":',
			headers: { 'content-type': 'application/json' },
		});
		expect(bad.status).toBe(400);
		expect(bad.body.error_message).toContain('not valid JSON');
		expect((await send(sb, [orderUpdate()])).status).toBe(400);
	});

	it.each(['destination', 'template_id', 'phone_number_id', 'component_list'])(
		'requires %s',
		async (field) => {
			const payload = orderUpdate();
			delete payload[field];
			const res = await send(sb, payload);
			expect(res.status).toBe(400);
			expect(res.body.error_code).toBe('bad_request');
			expect(res.body.error_message).toContain(field);
		},
	);

	it('requires string fields to be strings (no numeric phone_number_id)', async () => {
		const res = await send(sb, orderUpdate({ phone_number_id: 110000000000001 }));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_format');
		expect(res.body.error_message).toContain("'phone_number_id' must be a string");
	});

	it.each([{}, { components: {} }, []])(
		'requires component_list.components array (%j)',
		async (cl) => {
			const res = await send(sb, orderUpdate({ component_list: cl }));
			expect(res.status).toBe(400);
			expect(res.body.error_message).toContain('components');
		},
	);

	it.each(['12345', '+254 712 345 678', '07123', '+2547123456789', 'abc', '0812345678'])(
		'refuses destination %s',
		async (destination) => {
			const res = await send(sb, orderUpdate({ destination }));
			expect(res.status).toBe(400);
			expect(res.body.error_code).toBe('invalid_format');
			expect(res.body.error_message).toContain('destination');
		},
	);

	it('refuses null media_id / file_name instead of ignoring them', async () => {
		expect((await send(sb, orderUpdate({ media_id: null }))).status).toBe(400);
		expect((await send(sb, orderUpdate({ file_name: 7 }))).status).toBe(400);
	});
});

describe('send: sender and template', () => {
	it('explains a record id given as phone_number_id', async () => {
		const res = await send(sb, orderUpdate({ phone_number_id: '1' }));
		expect(res.status).toBe(404);
		expect(res.body).toEqual({
			error_code: 'not_found',
			error_message:
				"phone_number_id '1' is the record id of sender +254700000001; use its phone_number_id '110000000000001'",
			status_code: 404,
		});
	});

	it('refuses an unknown phone_number_id with 404', async () => {
		const res = await send(sb, orderUpdate({ phone_number_id: '999' }));
		expect(res.status).toBe(404);
		expect(res.body.error_code).toBe('not_found');
	});

	it('refuses a template of another sender and an unknown template with 404', async () => {
		const other = await send(sb, sendPayload(TEMPLATES.s2Thanks.id, [body(['1', 'x'])]));
		expect(other.status).toBe(404);
		expect(other.body.error_message).toContain('+254700000002');
		const unknown = await send(sb, sendPayload('tpl_nope', []));
		expect(unknown.status).toBe(404);
	});

	it.each([
		[TEMPLATES.pending.id, 'PENDING'],
		[TEMPLATES.rejected.id, 'REJECTED'],
	])('refuses %s (not approved)', async (id, status) => {
		const res = await send(sb, sendPayload(id, [body(['1', 'x'])]));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('template_not_approved');
		expect(res.body.error_message).toContain(status);
	});
});

describe('send: components, HEADER and BODY', () => {
	const welcome = TEMPLATES.textHeader.id;

	it('accepts a TEXT header with its placeholders', async () => {
		const res = await send(
			sb,
			sendPayload(welcome, [header(['1', 'Ann']), body(['1', 'Ann'], ['2', 'the club'])]),
		);
		expect(res.status).toBe(200);
	});

	it('requires every TEXT header placeholder', async () => {
		const res = await send(sb, sendPayload(welcome, [body(['1', 'Ann'], ['2', 'the club'])]));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('missing_variable');
		expect(res.body.error_message).toContain('HEADER');
	});

	it('requires every body placeholder', async () => {
		const res = await send(sb, sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'Ann'])]));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('missing_variable');
		expect(res.body.error_message).toContain('{{2}}');
	});

	it('refuses a placeholder number the text does not have', async () => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'], ['2', 'b'], ['3', 'c'])]),
		);
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain("BODY field '3'");
	});

	it.each(['name', '0', '01', '{{1}}', 'body_1'])('refuses BODY field name %s', async (name) => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body([name, 'a'], ['1', 'a'], ['2', 'b'])]),
		);
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain(`'${name}'`);
	});

	it('refuses HEADER fields on a template without header and on a media header', async () => {
		const none = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [header(['1', 'x']), body(['1', 'a'], ['2', 'b'])]),
		);
		expect(none.status).toBe(400);
		expect(none.body.error_message).toContain('has no header');
		const media = await send(sb, sendPayload(TEMPLATES.documentHeader.id, [header(['1', 'x'])]));
		expect(media.status).toBe(400);
		expect(media.body.error_message).toContain('DOCUMENT header');
	});

	it.each([
		['lower-case component_type', [{ component_type: 'body', fields: [] }]],
		['unknown component_type', [{ component_type: 'FOOTER', fields: [] }]],
		['fields not an array', [{ component_type: 'BODY', fields: {} }]],
		['numeric value', [{ component_type: 'BODY', fields: [{ name: '1', value: 5 }] }]],
		['empty value', [{ component_type: 'BODY', fields: [{ name: '1', value: '' }] }]],
		['numeric name', [{ component_type: 'BODY', fields: [{ name: 1, value: 'a' }] }]],
		['component not an object', ['BODY']],
	])('refuses %s', async (_label, components) => {
		const res = await send(sb, sendPayload(TEMPLATES.bodyOnly.id, components as never));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_format');
	});

	it('refuses a component type given twice and a field name given twice', async () => {
		const twice = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a']), body(['2', 'b'])]),
		);
		expect(twice.status).toBe(400);
		expect(twice.body.error_message).toContain('more than once');
		const dup = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'], ['1', 'b'], ['2', 'c'])]),
		);
		expect(dup.status).toBe(400);
		expect(dup.body.error_message).toContain('twice');
	});

	it('records nothing for refused sends', async () => {
		await send(sb, sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'])]));
		expect(sb.state.sentMessages).toHaveLength(0);
		expect(sb.state.sendCountByDestination).toEqual({});
	});
});
