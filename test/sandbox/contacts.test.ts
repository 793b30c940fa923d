import { startSandbox, CONTACTS, type Sandbox } from './index';
import { call } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const create = (json: unknown) => call(`${sb.contactsUrl}/v1/contacts/create`, { json });
const remove = (id: string | number) =>
	call(`${sb.contactsUrl}/v1/contacts/${id}`, { method: 'DELETE' });
const total = (groupId: number) => sb.state.groups.find((g) => g.id === groupId)?.total_contacts;

describe('create contact', () => {
	it('answers 201 with the public record only', async () => {
		const res = await create({
			phone_number: '0722000111',
			name: 'Dan Kip',
			email: 'dan@example.com',
			group_ids: [4, 5],
			custom_metadata: { fields: [{ name: 'signup_source', value: 'website' }] },
		});
		expect(res.status).toBe(201);
		expect(res.body).toEqual({
			id: 1004,
			name: 'Dan Kip',
			phone_number: '+254722000111',
			email: 'dan@example.com',
			created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
			updated_at: res.body.created_at,
		});
		const stored = sb.state.contacts.find((c) => c.id === 1004);
		expect(stored?.group_ids).toEqual([4, 5]);
		expect(stored?.custom_metadata).toEqual([{ name: 'signup_source', value: 'website' }]);
		expect([total(4), total(5)]).toEqual([1, 1]);
	});

	it('needs only phone_number; absent name and email come back empty', async () => {
		const res = await create({ phone_number: '+254733000222' });
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ name: '', email: '', phone_number: '+254733000222' });
	});

	it('upserts by phone number by default (same id, updated fields, merged groups)', async () => {
		const res = await create({
			phone_number: CONTACTS.amina.phone_number.slice(1),
			name: 'Amina W.',
			group_ids: [5],
		});
		expect(res.status).toBe(201);
		expect(res.body).toMatchObject({ id: 1001, name: 'Amina W.', email: 'amina@example.com' });
		expect(res.body.updated_at).not.toBe(res.body.created_at);
		expect(sb.state.contacts.find((c) => c.id === 1001)?.group_ids).toEqual([1, 2, 5]);
		expect([total(1), total(5)]).toEqual([2, 1]);
		expect(sb.state.contacts).toHaveLength(4);
	});

	it('creates duplicates in duplicate mode', async () => {
		sb.setOptions({ contactCreateMode: 'duplicate' });
		const a = await create({ phone_number: CONTACTS.amina.phone_number, group_ids: [1] });
		expect(a.status).toBe(201);
		expect(a.body.id).not.toBe(1001);
		expect(total(1)).toBe(3);
	});

	it.each([
		[{}, 'phone_number is required'],
		[{ phone_number: '12' }, 'Invalid phone number format'],
		[{ phone_number: '+254 722 000 111' }, 'Invalid phone number format'],
		[{ phone_number: 254722000111 }, 'must be a string'],
		[{ phone_number: '0722000111', email: 'not-an-email' }, 'Invalid email'],
		[{ phone_number: '0722000111', name: 42 }, 'name must be a string'],
		[{ phone_number: '0722000111', group_ids: ['1'] }, 'positive integers'],
		[{ phone_number: '0722000111', group_ids: 1 }, 'positive integers'],
		[{ phone_number: '0722000111', group_ids: [1, 404, 405] }, 'Unknown group id(s): 404, 405'],
		[
			{ phone_number: '0722000111', custom_metadata: [{ name: 'a', value: 'b' }] },
			'custom_metadata',
		],
		[
			{ phone_number: '0722000111', custom_metadata: { fields: [{ name: 'a', value: 3 }] } },
			'must be a string',
		],
		[{ phone_number: '0722000111', custom_metadata: { fields: [{ value: 'x' }] } }, 'name must be'],
	])('refuses %j with 400', async (payload, message) => {
		const res = await create(payload);
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			error: expect.any(String),
			message: expect.stringContaining(message),
		});
		expect(sb.state.contacts).toHaveLength(4);
	});

	it('uses the invalid_phone_number code for a bad number', async () => {
		const res = await create({ phone_number: 'call me' });
		expect(res.body.error).toBe('invalid_phone_number');
	});

	it('requires a JSON content type', async () => {
		const res = await call(`${sb.contactsUrl}/v1/contacts/create`, {
			method: 'POST',
			body: 'phone_number=0722000111',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		});
		expect(res.status).toBe(400);
		expect(res.body).toEqual({
			error: 'bad_request',
			message: expect.stringContaining('application/json'),
		});
	});
});

describe('delete contact', () => {
	it('deletes, removes from all groups and forgets the metadata', async () => {
		const made = await create({
			phone_number: '0722000111',
			group_ids: [1, 2],
			custom_metadata: { fields: [{ name: 'tier', value: 'gold' }] },
		});
		expect([total(1), total(2)]).toEqual([3, 2]);
		const res = await remove(made.body.id);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ message: 'Contact deleted successfully' });
		expect([total(1), total(2)]).toEqual([2, 1]);
		expect(sb.state.contacts.some((c) => c.id === made.body.id)).toBe(false);
		expect((await remove(made.body.id)).status).toBe(404);
	});

	it('deletes a seeded contact and updates its groups', async () => {
		expect(total(3)).toBe(1);
		expect((await remove(CONTACTS.cynthia.id)).status).toBe(200);
		expect(total(3)).toBe(0);
	});

	it('answers 404 for an absent contact', async () => {
		const res = await remove(424242);
		expect(res.status).toBe(404);
		expect(res.body).toEqual({ error: 'not_found', message: expect.stringContaining('424242') });
	});

	it('answers 403 for a contact of another account and keeps it', async () => {
		const res = await remove(9001);
		expect(res.status).toBe(403);
		expect(res.body).toEqual({ error: 'forbidden', message: expect.any(String) });
		expect(sb.state.contacts.some((c) => c.id === 9001)).toBe(true);
	});

	it.each(['abc', '0', '-5', '1.5', '1e3'])('answers 400 for id %s', async (id) => {
		const res = await remove(id);
		expect(res.status).toBe(400);
		expect(res.body.error).toBe('bad_request');
	});

	it('answers 405 for GET on a contact', async () => {
		expect((await call(`${sb.contactsUrl}/v1/contacts/1001`)).status).toBe(405);
	});
});
