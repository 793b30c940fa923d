// GET /v1/groups/fetch (docs/api.md "Groups and pages"). The page-selection parameters are "not
// shown"; the pagination object's `page` and `per` suggest ?page=N&per=M, which is what the sandbox
// reads. Choices where the spec is silent:
// - pages are 1-based; `per` above maxPerPage is clamped and the clamped value is answered;
// - zero groups: num_pages 0, next_page and prev_page null;
// - a page beyond the last: empty groups, next_page null, prev_page the last real page (or null);
// - ignorePageParam: ?page= is ignored (page 1 always, same pagination object), ?per= still
// applies.
// - runawayPagination (hostile): next_page is always page + 1; pages past the last answer known
// groups
//   in a changing order (`repeat`) or made-up groups with new ids (`fresh`).
import type { SandboxContext } from './context';
import type { Exchange } from './server';
import type { Checked, Group, RunawayPagination } from './types';

export interface Pagination {
	count: number;
	next_page: number | null;
	num_pages: number;
	page: number;
	per: number;
	prev_page: number | null;
}

function positiveInt(query: Record<string, string>, name: string): Checked<number | undefined> {
	const raw = query[name];
	if (raw === undefined) return { ok: true, value: undefined };
	if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
		const message = `Query parameter '${name}' must be a positive integer, got '${raw}'`;
		return { ok: false, problem: { status: 400, code: 'bad_request', message } };
	}
	return { ok: true, value: Number(raw) };
}

export function paginate(count: number, page: number, per: number): Pagination {
	const numPages = Math.ceil(count / per);
	const prev = Math.min(page - 1, numPages);
	return {
		count,
		next_page: page < numPages ? page + 1 : null,
		num_pages: numPages,
		page,
		per,
		prev_page: prev >= 1 ? prev : null,
	};
}

/**
 * What a runaway listing answers for a page past the last: `size` known groups from a window that
 * moves every page, in an order that depends on the page (so no two pages look alike), or new ones.
 */
function runawayPage(
	groups: Group[],
	page: number,
	size: number,
	mode: RunawayPagination,
): Group[] {
	if (mode === 'fresh') {
		const firstId = groups.length + (page - 1) * size + 1;
		return Array.from({ length: size }, (_, i) => ({
			...(groups[0] ?? { account_id: 1, creator_id: 1, is_private: false, total_contacts: 0 }),
			id: firstId + i,
			name: `Runaway group ${firstId + i}`,
			description: '',
			created_at: new Date(0).toISOString(),
			updated_at: new Date(0).toISOString(),
		})) as Group[];
	}
	if (groups.length === 0) return [];
	const window = Array.from(
		{ length: Math.min(size, groups.length) },
		(_, i) => groups[(page + i) % groups.length],
	);
	return window.sort((a, b) => ((a.id * page) % 9973) - ((b.id * page) % 9973));
}

export async function handleFetchGroups(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const page = positiveInt(ex.record.query, 'page');
	if (!page.ok) return ex.fail(page.problem);
	const per = positiveInt(ex.record.query, 'per');
	if (!per.ok) return ex.fail(per.problem);
	const { options, state } = ctx;
	const size = Math.min(per.value ?? options.defaultPerPage, options.maxPerPage);
	const current = options.ignorePageParam ? 1 : (page.value ?? 1);
	const start = (current - 1) * size;
	const pagination = paginate(state.groups.length, current, size);
	if (options.runawayPagination !== 'off' && current > pagination.num_pages) {
		return ex.reply(200, {
			groups: runawayPage(state.groups, current, size, options.runawayPagination),
			pagination: { ...pagination, next_page: current + 1 },
		});
	}
	if (options.runawayPagination !== 'off') pagination.next_page = current + 1;
	return ex.reply(200, { groups: state.groups.slice(start, start + size), pagination });
}
