import { startSandbox, type Sandbox } from './index';
import { call } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const fetchGroups = (query = '') => call(`${sb.contactsUrl}/v1/groups/fetch${query}`);

describe('groups listing', () => {
	it('answers the first page of 10 by default with the spec fields', async () => {
		const res = await fetchGroups();
		expect(res.status).toBe(200);
		expect(res.body.pagination).toEqual({
			count: 25,
			next_page: 2,
			num_pages: 3,
			page: 1,
			per: 10,
			prev_page: null,
		});
		expect(res.body.groups).toHaveLength(10);
		expect(res.body.groups[0]).toEqual({
			id: 1,
			account_id: 77,
			creator_id: 5,
			name: 'Group 1',
			description: expect.any(String),
			is_private: false,
			total_contacts: 2,
			created_at: expect.stringMatching(/Z$/),
			updated_at: expect.stringMatching(/Z$/),
		});
		expect(res.body.groups.some((g: { description: string }) => g.description === '')).toBe(true);
		expect(res.body.groups.some((g: { is_private: boolean }) => g.is_private)).toBe(true);
	});

	it('walks all pages with page and per', async () => {
		const seen: number[] = [];
		let page: number | null = 1;
		while (page !== null) {
			const res = await fetchGroups(`?page=${page}&per=7`);
			seen.push(...res.body.groups.map((g: { id: number }) => g.id));
			expect(res.body.pagination).toMatchObject({ page, per: 7, num_pages: 4, count: 25 });
			expect(res.body.pagination.prev_page).toBe(page > 1 ? page - 1 : null);
			page = res.body.pagination.next_page;
		}
		expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
	});

	it('answers an empty page beyond the last', async () => {
		const res = await fetchGroups('?page=9');
		expect(res.body).toEqual({
			groups: [],
			pagination: { count: 25, next_page: null, num_pages: 3, page: 9, per: 10, prev_page: 3 },
		});
	});

	it('fits one page', async () => {
		sb.setOptions({ groupCount: 4 });
		const res = await fetchGroups();
		expect(res.body.groups).toHaveLength(4);
		expect(res.body.pagination).toEqual({
			count: 4,
			next_page: null,
			num_pages: 1,
			page: 1,
			per: 10,
			prev_page: null,
		});
	});

	it('answers zero groups with num_pages 0', async () => {
		const empty = await startSandbox({ groupCount: 0 });
		try {
			const res = await call(`${empty.contactsUrl}/v1/groups/fetch`);
			expect(res.body).toEqual({
				groups: [],
				pagination: { count: 0, next_page: null, num_pages: 0, page: 1, per: 10, prev_page: null },
			});
		} finally {
			await empty.stop();
		}
	});

	it('clamps per to maxPerPage and honours defaultPerPage', async () => {
		const clamped = await fetchGroups('?per=1000');
		expect(clamped.body.pagination.per).toBe(100);
		expect(clamped.body.groups).toHaveLength(25);
		sb.setOptions({ defaultPerPage: 5, maxPerPage: 8 });
		expect((await fetchGroups()).body.pagination).toMatchObject({ per: 5, num_pages: 5 });
		expect((await fetchGroups('?per=50')).body.pagination).toMatchObject({ per: 8, num_pages: 4 });
	});

	it.each(['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?per=0', '?per=x', '?page='])(
		'refuses %s with 400',
		async (query) => {
			const res = await fetchGroups(query);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				error: 'bad_request',
				message: expect.stringContaining('positive integer'),
			});
		},
	);

	it('ignorePageParam answers page 1 whatever page is asked', async () => {
		sb.setOptions({ ignorePageParam: true });
		const first = await fetchGroups('?page=1');
		const second = await fetchGroups('?page=2');
		expect(second.body).toEqual(first.body);
		expect(second.body.pagination).toMatchObject({ page: 1, next_page: 2 });
		sb.setOptions({ ignorePageParam: false });
		expect((await fetchGroups('?page=2')).body.pagination.page).toBe(2);
	});

	it('runawayPagination repeat: next_page never ends, later pages hold known groups in new orders', async () => {
		sb.setOptions({ runawayPagination: 'repeat' });
		expect((await fetchGroups('?page=3')).body.pagination).toMatchObject({ next_page: 4 });
		const pages = await Promise.all([4, 5, 6].map((page) => fetchGroups(`?page=${page}`)));
		const ids = pages.map((res) => res.body.groups.map((group: { id: number }) => group.id));
		for (const page of pages)
			expect(page.body.pagination).toMatchObject({ count: 25, num_pages: 3 });
		expect(pages.map((res) => res.body.pagination.next_page)).toEqual([5, 6, 7]);
		for (const list of ids) {
			expect(list).toHaveLength(10);
			expect(list.every((id: number) => id >= 1 && id <= 25)).toBe(true);
		}
		expect(new Set(ids.map((list) => list.join(','))).size).toBe(3);
	});

	it('runawayPagination fresh: pages past the last bring made-up groups with new ids', async () => {
		sb.setOptions({ runawayPagination: 'fresh' });
		const fourth = await fetchGroups('?page=4');
		const fifth = await fetchGroups('?page=5');
		expect(fourth.body.groups.map((group: { id: number }) => group.id)).toEqual(
			Array.from({ length: 10 }, (_, i) => 56 + i),
		);
		expect(fifth.body.groups[0].id).toBe(66);
		expect(fifth.body.pagination).toMatchObject({ count: 25, num_pages: 3, next_page: 6 });
	});

	it('reset restores the start options and the seeded groups', async () => {
		sb.setOptions({ groupCount: 2, ignorePageParam: true });
		sb.reset();
		const res = await fetchGroups('?page=3');
		expect(res.body.pagination).toMatchObject({ count: 25, page: 3 });
	});
});
