import { CONTACTS } from '../sandbox';
import { jsonItems, useNodeEnv } from './support';

const env = useNodeEnv({ groupCount: 230 });

describe('Contact > Create and Delete in the real n8n engine', () => {
	it('creates contacts from items with groups (ids or "1,2" from expressions) and custom attributes', async () => {
		const { items, error } = await env.run(
			{
				resource: 'contact',
				operation: 'create',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: {
					name: '={{ $json.name }}',
					email: '={{ $json.email }}',
					groupIds: '={{ $json.groups }}',
					customAttributes: {
						attribute: [
							{ name: 'signup_source', value: '={{ $json.source }}' },
							{ name: 'last_purchase', value: '2026-11-20' },
						],
					},
				},
			},
			jsonItems(
				{
					phone: '+254722100001',
					name: 'Wanjiku',
					email: 'wanjiku@example.com',
					groups: '4, 5',
					source: 'website',
				},
				{
					phone: '0722100002',
					name: 'Otieno',
					email: 'otieno@example.com',
					groups: [6],
					source: 'crm',
				},
			),
		);
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json)).toEqual([
			// The record, plus the groups and attributes sent with it (the answer omits them).
			expect.objectContaining({
				id: expect.any(Number),
				name: 'Wanjiku',
				phone_number: '+254722100001',
				groupIds: [4, 5],
				customAttributes: [
					{ name: 'signup_source', value: 'website' },
					{ name: 'last_purchase', value: '2026-11-20' },
				],
			}),
			expect.objectContaining({
				id: expect.any(Number),
				name: 'Otieno',
				groupIds: [6],
				customAttributes: [
					{ name: 'signup_source', value: 'crm' },
					{ name: 'last_purchase', value: '2026-11-20' },
				],
			}),
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const creates = env.sandbox.requests.filter(
			(request) => request.path === '/v1/contacts/create',
		);
		expect(creates[0].body).toEqual({
			phone_number: '+254722100001',
			name: 'Wanjiku',
			email: 'wanjiku@example.com',
			group_ids: [4, 5],
			custom_metadata: {
				fields: [
					{ name: 'signup_source', value: 'website' },
					{ name: 'last_purchase', value: '2026-11-20' },
				],
			},
		});
		expect(creates[1].body).toMatchObject({ group_ids: [6] });
	});

	it('names the bad field of the item that failed and sends nothing for it', async () => {
		const { error } = await env.run(
			{
				resource: 'contact',
				operation: 'create',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: { email: 'nope' },
			},
			jsonItems({ phone: '+254722100001' }),
		);
		expect(error?.message).toBe('Invalid input in item 1: "Email" is not a valid e-mail address');
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('deletes a contact; "not found" fails unless Succeed If Not Found is on', async () => {
		const deleted = await env.run(
			{ resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}' },
			jsonItems({ id: CONTACTS.amina.id }),
		);
		expect(deleted.items[0].json).toMatchObject({
			contactId: String(CONTACTS.amina.id),
			deleted: true,
		});
		const again = await env.run(
			{ resource: 'contact', operation: 'delete', contactId: String(CONTACTS.amina.id) },
			jsonItems({}),
		);
		expect(again.error?.message).toContain('HTTP 404');
		expect((again.error as { httpCode?: string } | undefined)?.httpCode).toBe('404');
		const tolerant = await env.run(
			{
				resource: 'contact',
				operation: 'delete',
				contactId: String(CONTACTS.amina.id),
				options: { ignoreNotFound: true },
			},
			jsonItems({}),
		);
		expect(tolerant.items[0].json).toMatchObject({ deleted: false, notFound: true });
	});

	it('deletes by the exact digits of an id beyond 2^53, and refuses 1e21 naming the field', async () => {
		const { items } = await env.run(
			{
				resource: 'contact',
				operation: 'delete',
				contactId: '={{ $json.id }}',
				options: { ignoreNotFound: true },
			},
			jsonItems({ id: '9007199254740993' }, { id: '12345678901234567' }),
		);
		expect(items.map((item) => item.json.contactId)).toEqual([
			'9007199254740993',
			'12345678901234567',
		]);
		expect(env.sandbox.requests.map((request) => request.path)).toEqual([
			'/v1/contacts/9007199254740993',
			'/v1/contacts/12345678901234567',
		]);
		const refused = await env.run(
			{ resource: 'contact', operation: 'delete', contactId: '1e21' },
			jsonItems({}),
		);
		expect(refused.error?.message).toContain('"Contact ID" must be a contact id: digits only');
		expect(env.sandbox.requests).toHaveLength(2);
	});

	it('reports 403 for a contact of another account, as an error item with Continue On Fail', async () => {
		const { items } = await env.run(
			{ resource: 'contact', operation: 'delete', contactId: String(CONTACTS.foreign.id) },
			jsonItems({}),
			{ continueOnFail: true },
		);
		expect(items[0]).toEqual({
			json: expect.objectContaining({
				errorKind: 'permission',
				httpStatus: 403,
				code: expect.any(String),
			}),
			pairedItem: { item: 0 },
		});
	});
});

describe('Group > Get Many', () => {
	it('Return All follows every page', async () => {
		const { items } = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: true },
			jsonItems({}),
		);
		expect(items).toHaveLength(230);
		expect(items[229].json).toMatchObject({ id: 230, name: 'Group 230' });
		expect(env.sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '3']);
	});

	it('Return All against a next_page that never ends: each group once, a bounded number of requests', async () => {
		env.sandbox.setOptions({ runawayPagination: 'repeat' });
		const repeated = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: true },
			jsonItems({}),
		);
		expect(repeated.error).toBeUndefined();
		expect(new Set(repeated.items.map((item) => item.json.id)).size).toBe(230);
		expect(repeated.items).toHaveLength(230);
		expect(env.sandbox.requests).toHaveLength(4);

		env.sandbox.reset();
		env.sandbox.setOptions({ runawayPagination: 'fresh' });
		const fresh = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: true },
			jsonItems({}),
		);
		expect(fresh.error?.message).toContain(
			'the service kept announcing a next page after 5 pages (its first page said 3)',
		);
		expect(env.sandbox.requests).toHaveLength(5);
	});

	it('Limit stops early', async () => {
		const { items } = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: false, limit: 7 },
			jsonItems({}),
		);
		expect(items).toHaveLength(7);
		expect(items.every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(env.sandbox.requests).toHaveLength(1);
	});

	it('the groups picker of Contact > Create lists every group by name', async () => {
		const options = await env.loadOptions('getGroups', {
			resource: 'contact',
			operation: 'create',
		});
		expect(options).toHaveLength(230);
		expect(options).toEqual(
			expect.arrayContaining([
				expect.objectContaining({ name: 'Group 12 (0 contacts)', value: 12 }),
			]),
		);
		// Natural order, as people count: Group 2 before Group 10, Group 10 before Group 100.
		const names = options.map((option) => option.name.replace(/ \(.*$/, ''));
		expect(names.slice(0, 3)).toEqual(['Group 1', 'Group 2', 'Group 3']);
		expect(names.indexOf('Group 10')).toBeLessThan(names.indexOf('Group 100'));
		expect(names.indexOf('Group 9')).toBeLessThan(names.indexOf('Group 10'));
	});
});
