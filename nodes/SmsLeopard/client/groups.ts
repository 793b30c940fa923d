/**
 * Fetch groups: GET {base_url}/v1/groups/fetch (spec 2.7, 2.8, 4.4), one page or all of them. Page
 * parameters are not in the specification (`?page=N&per=M` is inferred from the pagination object),
 * so the iterator also stops when a server ignores them and answers the same page again.
 */
import { z } from 'zod';
import type { ApiCall, ApiCaller } from './api-caller';
import { validateInput } from './validation';

const nullableText = z.string().nullish();
const optionalCount = z.coerce.number().int().nullish();

export const groupSchema = z
	.object({
		id: z.coerce.number().int(),
		account_id: optionalCount,
		creator_id: optionalCount,
		name: nullableText,
		description: nullableText,
		is_private: z.boolean().nullish(),
		total_contacts: optionalCount,
		created_at: nullableText,
		updated_at: nullableText,
	})
	.passthrough();

export const paginationSchema = z
	.object({
		count: optionalCount,
		next_page: optionalCount,
		num_pages: optionalCount,
		page: optionalCount,
		per: optionalCount,
		prev_page: optionalCount,
	})
	.passthrough();

export const groupsPageSchema = z
	.object({
		groups: z.array(groupSchema),
		pagination: paginationSchema.nullish(),
	})
	.passthrough();

export type Group = z.infer<typeof groupSchema>;
export type GroupsPage = z.infer<typeof groupsPageSchema>;

export interface GroupsPageRequest {
	page?: number;
	per?: number;
}

export interface AllGroupsRequest {
	/** Page size to ask for. */
	per?: number;
	/** Stop after this many groups. */
	limit?: number;
	/** Safety bound on pages read, whatever the server says. */
	maxPages?: number;
}

const pageNumber = z.number().int('must be a whole number').min(1, 'must be 1 or more');

const pageRequest = z.object({
	page: pageNumber.optional(),
	per: pageNumber.max(1000, 'must be 1000 or less').optional(),
});

const allRequest = pageRequest.omit({ page: true }).extend({
	limit: pageNumber.optional(),
	maxPages: pageNumber.optional(),
});

export function groupsPageCall(request: GroupsPageRequest = {}): ApiCall<GroupsPage> {
	const input = validateInput(pageRequest, request);
	const query: Record<string, number> = {};
	if (input.page !== undefined) query.page = input.page;
	if (input.per !== undefined) query.per = input.per;
	return {
		operation: `Fetch groups${input.page ? ` (page ${input.page})` : ''}`,
		host: 'contacts',
		method: 'GET',
		path: '/v1/groups/fetch',
		query,
		idempotent: true,
		response: groupsPageSchema,
	};
}

const DEFAULT_MAX_PAGES = 10_000;

function pageSignature(groups: Group[]): string {
	return groups.map((group) => group.id).join(',');
}

/** Yields every group, page after page, until the last page, the limit, or a repeated page. */
export async function* iterateGroups(
	caller: ApiCaller,
	request: AllGroupsRequest = {},
): AsyncGenerator<Group, void, undefined> {
	const input = validateInput(allRequest, request);
	const maxPages = input.maxPages ?? DEFAULT_MAX_PAGES;
	const seenPages = new Set<string>();
	let yielded = 0;
	let page = 1;
	for (let pagesRead = 0; pagesRead < maxPages; pagesRead++) {
		const answer = await caller.call(groupsPageCall({ page, per: input.per }));
		const signature = pageSignature(answer.groups);
		// The same non-empty page twice means the server ignores `page`: stop rather than loop forever.
		if (answer.groups.length > 0 && seenPages.has(signature)) return;
		seenPages.add(signature);
		for (const group of answer.groups) {
			if (input.limit !== undefined && yielded >= input.limit) return;
			yield group;
			yielded++;
		}
		if (input.limit !== undefined && yielded >= input.limit) return;
		const next = answer.pagination?.next_page;
		if (next === null || next === undefined || next <= page || answer.groups.length === 0) return;
		page = next;
	}
}
