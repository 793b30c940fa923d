// GET /v1/groups/fetch (spec 2.7, 2.8, 4.4). The page-selection parameters are "not shown"; the
// pagination object's `page` and `per` suggest ?page=N&per=M, which is what the sandbox reads.
// Choices where the spec is silent:
// - pages are 1-based; `per` above maxPerPage is clamped and the clamped value is answered;
// - zero groups: num_pages 0, next_page and prev_page null;
// - a page beyond the last: empty groups, next_page null, prev_page the last real page (or null);
// - ignorePageParam: ?page= is ignored (page 1 always, same pagination object), ?per= still applies.
import type { SandboxContext } from './context';
import type { Exchange } from './server';
import type { Checked } from './types';

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

export async function handleFetchGroups(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const page = positiveInt(ex.record.query, 'page');
	if (!page.ok) return ex.fail(page.problem);
	const per = positiveInt(ex.record.query, 'per');
	if (!per.ok) return ex.fail(per.problem);
	const { options, state } = ctx;
	const size = Math.min(per.value ?? options.defaultPerPage, options.maxPerPage);
	const current = options.ignorePageParam ? 1 : (page.value ?? 1);
	const start = (current - 1) * size;
	return ex.reply(200, {
		groups: state.groups.slice(start, start + size),
		pagination: paginate(state.groups.length, current, size),
	});
}
