import {
	SmsLeopardBadRequestError,
	SmsLeopardError,
	SmsLeopardNotFoundError,
	SmsLeopardPermissionError,
	SmsLeopardValidationError,
} from '../../nodes/SmsLeopard/client';
import { CONTACTS } from '../sandbox';
import { type SandboxClient, caught, startSandboxClient } from '../support/sandbox-client';

let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient({ groupCount: 25 });
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

function groupTotal(id: number): number | undefined {
	return env.sandbox.state.groups.find((group) => group.id === id)?.total_contacts;
}

describe('contacts', () => {
	it('creates a contact with groups and custom attributes; the response has no group_ids', async () => {
		const before = groupTotal(2);
		const contact = await env.client.createContact({
			phoneNumber: '+254 722 000 111',
			name: ' Zawadi Akinyi ',
			email: 'zawadi@example.com',
			groupIds: [2, '5', 2],
			customAttributes: [
				{ name: 'signup_source', value: 'website' },
				{ name: 'survey_score', value: '9' },
			],
		});
		expect(contact).toMatchObject({
			id: expect.any(Number),
			name: 'Zawadi Akinyi',
			phone_number: '+254722000111',
			email: 'zawadi@example.com',
		});
		expect(contact).not.toHaveProperty('group_ids');
		expect(groupTotal(2)).toBe((before ?? 0) + 1);
		expect(env.sandbox.requests[0].body).toEqual({
			phone_number: '+254722000111',
			name: 'Zawadi Akinyi',
			email: 'zawadi@example.com',
			group_ids: [2, 5],
			custom_metadata: {
				fields: [
					{ name: 'signup_source', value: 'website' },
					{ name: 'survey_score', value: '9' },
				],
			},
		});
	});

	it('refuses a bad e-mail, group id or duplicate attribute before sending', async () => {
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.createContact({
				phoneNumber: '+254722000111',
				email: 'not-an-email',
				groupIds: [0],
				customAttributes: [
					{ name: 'a', value: '1' },
					{ name: 'a', value: '2' },
				],
			}),
		);
		expect(error.issues.map((issue) => issue.field)).toEqual([
			'email',
			'groupIds[0]',
			'customAttributes[1].name',
		]);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it("reports the service's 400 for an unknown group", async () => {
		const error = await caught<SmsLeopardBadRequestError>(() =>
			env.client.createContact({ phoneNumber: '+254722000111', groupIds: [999] }),
		);
		expect(error).toBeInstanceOf(SmsLeopardBadRequestError);
		expect(error.status).toBe(400);
		expect(error.message).toContain('Create contact +254722000111 failed');
	});

	it('deletes a contact, which leaves its groups; 404 and 403 are typed', async () => {
		const before = groupTotal(1);
		const result = await env.client.deleteContact(CONTACTS.brian.id);
		expect(result.message).toEqual(expect.any(String));
		expect(groupTotal(1)).toBe((before ?? 0) - 1);
		const gone = await caught<SmsLeopardNotFoundError>(() =>
			env.client.deleteContact(String(CONTACTS.brian.id)),
		);
		expect(gone).toBeInstanceOf(SmsLeopardNotFoundError);
		expect(gone.status).toBe(404);
		const foreign = await caught<SmsLeopardPermissionError>(() =>
			env.client.deleteContact(CONTACTS.foreign.id),
		);
		expect(foreign).toBeInstanceOf(SmsLeopardPermissionError);
		expect(foreign.kind).toBe('permission');
	});

	it('refuses a contact id that is not a positive whole number', async () => {
		for (const id of ['abc', 0, -3, 1.5, '12; DROP', '1e21', 1e21, '-1', '0', '', 2 ** 53 + 2]) {
			const error = await caught<SmsLeopardValidationError>(() =>
				env.client.deleteContact(id as number),
			);
			expect(error.field).toBe('contactId');
		}
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('keeps an id beyond 2^53 as its exact digits in the path (never a neighbour record)', async () => {
		for (const id of ['9007199254740993', '12345678901234567', ' 00042 ']) {
			const error = await caught<SmsLeopardNotFoundError>(() => env.client.deleteContact(id));
			expect(error).toBeInstanceOf(SmsLeopardNotFoundError);
		}
		expect(env.sandbox.requests.map((request) => request.path)).toEqual([
			'/v1/contacts/9007199254740993',
			'/v1/contacts/12345678901234567',
			'/v1/contacts/42',
		]);
	});
});

describe('groups', () => {
	it('fetches one page with its pagination object', async () => {
		const page = await env.client.getGroupsPage({ page: 2, per: 10 });
		expect(page.groups.map((group) => group.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
		expect(page.pagination).toMatchObject({
			count: 25,
			page: 2,
			per: 10,
			next_page: 3,
			prev_page: 1,
			num_pages: 3,
		});
	});

	it('follows every page (many pages)', async () => {
		const groups = await env.client.getAllGroups({ per: 10 });
		expect(groups.map((group) => group.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
		expect(env.sandbox.requests.map((request) => request.query.page)).toEqual(['1', '2', '3']);
	});

	it('stops at the limit without reading further pages', async () => {
		const groups = await env.client.getAllGroups({ per: 10, limit: 12 });
		expect(groups).toHaveLength(12);
		expect(env.sandbox.requests).toHaveLength(2);
	});

	it('reads a single page when everything fits', async () => {
		expect(await env.client.getAllGroups({ per: 100 })).toHaveLength(25);
		expect(env.sandbox.requests).toHaveLength(1);
	});

	it('stops when the server ignores the page parameter, instead of looping forever', async () => {
		env.sandbox.setOptions({ ignorePageParam: true });
		const groups = await env.client.getAllGroups({ per: 10 });
		expect(groups.map((group) => group.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
		expect(env.sandbox.requests).toHaveLength(2);
	});
});

describe('groups from a listing whose next_page never ends', () => {
	it('stops at the first page that brings no new group, each group once', async () => {
		env.sandbox.setOptions({ runawayPagination: 'repeat' });
		const groups = await env.client.getAllGroups({ per: 10 });
		expect(groups.map((group) => group.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
		expect(env.sandbox.requests).toHaveLength(4);
	});

	it('fails clearly once pages run past what the first page announced (3, plus 2 of slack)', async () => {
		env.sandbox.setOptions({ runawayPagination: 'fresh' });
		const error = await caught<SmsLeopardError>(() => env.client.getAllGroups({ per: 10 }));
		expect(error).toBeInstanceOf(SmsLeopardError);
		expect(error.message).toBe(
			'Fetch groups: the service kept announcing a next page after 5 pages (its first page said 3), ' +
				'so the listing was stopped with 45 groups read. Check that the credential points at the ' +
				'SMSLeopard API hosts, or turn off Return All and set a Limit',
		);
		expect(env.sandbox.requests).toHaveLength(5);
	});
});

describe('groups with zero groups', () => {
	it('returns nothing after one request', async () => {
		const empty = await startSandboxClient({ groupCount: 0 });
		try {
			expect(await empty.client.getAllGroups()).toEqual([]);
			expect(empty.sandbox.requests).toHaveLength(1);
		} finally {
			await empty.close();
		}
	});
});
