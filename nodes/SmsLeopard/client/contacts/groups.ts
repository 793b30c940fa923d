/**
 * Fetch groups: GET {base_url}/v1/groups/fetch (docs/api.md "Groups and pages"), one page or all of
 * them. Page parameters are not documented, so `?page=N&per=M` is inferred
 * (docs/api.md "What is undocumented and what we assume"), and the iterator also stops when a
 * server ignores them and answers the same page again.
 */
import { z } from 'zod';
import type { ApiCall, ApiCaller } from '../http/api-caller';
import {
	answerFlag,
	answerRecord,
	answerRecordId,
	answerText,
	answerWholeNumber,
	hasNoteAbout,
} from '../http/answer-values';
import { SmsLeopardError } from '../http/errors';
import { validateInput } from '../http/validation';

// Odd fields become null with a note (answer-values.ts): one odd group does not hide the page.
export const groupSchema = answerRecord({
	id: answerRecordId,
	account_id: answerWholeNumber,
	creator_id: answerWholeNumber,
	name: answerText,
	description: answerText,
	is_private: answerFlag,
	total_contacts: answerWholeNumber,
	created_at: answerText,
	updated_at: answerText,
});

export const paginationSchema = answerRecord({
	count: answerWholeNumber,
	next_page: answerWholeNumber,
	num_pages: answerWholeNumber,
	page: answerWholeNumber,
	per: answerWholeNumber,
	prev_page: answerWholeNumber,
});

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
/** Pages allowed beyond what the first page announced: groups created while paging shift pages. */
const EXTRA_PAGES = 2;

/** Pages the first answer says there are (num_pages, or count / per), when it says so. */
function announcedPages(first: GroupsPage, per: number | undefined): number | undefined {
	const pagination = first.pagination;
	if (!pagination) return undefined;
	if (typeof pagination.num_pages === 'number' && pagination.num_pages >= 0) {
		return pagination.num_pages;
	}
	const size = pagination.per ?? per ?? first.groups.length;
	if (typeof pagination.count === 'number' && pagination.count >= 0 && size > 0) {
		return Math.ceil(pagination.count / size);
	}
	return undefined;
}

/**
 * Yields every group once, page after page, until the last page or the limit. A hostile or broken
 * listing cannot make it read forever: it stops at a page that brings no group it has not seen (the
 * server ignores `page`, or repeats itself), and fails clearly when the listing runs past the pages
 * its first page announced (plus a little slack for groups created meanwhile).
 */
export async function* iterateGroups(
	caller: ApiCaller,
	request: AllGroupsRequest = {},
): AsyncGenerator<Group, void, undefined> {
	const input = validateInput(allRequest, request);
	let maxPages = input.maxPages ?? DEFAULT_MAX_PAGES;
	let announced: number | undefined;
	// A group without a usable id (null with a note) cannot be told apart: each counts as new.
	const seen = new Set<number | string>();
	let page = 1;
	for (let pagesRead = 0; ; pagesRead++) {
		if (pagesRead >= maxPages) {
			throw new SmsLeopardError(
				`Fetch groups: the service kept announcing a next page after ${pagesRead} pages` +
					(announced === undefined ? '' : ` (its first page said ${announced})`) +
					`, so the listing was stopped with ${seen.size} groups read. ` +
					'Check that the credential points at the SMSLeopard API hosts, or turn off Return All and set a Limit',
			);
		}
		const answer = await caller.call(groupsPageCall({ page, per: input.per }));
		if (pagesRead === 0) {
			announced = announcedPages(answer, input.per);
			if (announced !== undefined) maxPages = Math.min(maxPages, announced + EXTRA_PAGES);
		}
		let newGroups = 0;
		for (const [position, group] of answer.groups.entries()) {
			const key = group.id ?? `page ${page}, #${position}`;
			if (seen.has(key)) continue;
			if (input.limit !== undefined && seen.size >= input.limit) return;
			seen.add(key);
			newGroups++;
			yield group;
		}
		// A page with groups but none new: the server ignores `page` or repeats itself. Stop here.
		if (newGroups === 0 && answer.groups.length > 0) return;
		if (input.limit !== undefined && seen.size >= input.limit) return;
		const pagination = answer.pagination;
		// An odd next_page ("2a", true) may hide further pages: stopping quietly would look complete.
		if (pagination && hasNoteAbout(pagination, 'next_page')) {
			throw new SmsLeopardError(
				`Fetch groups: page ${page} answered a next page that is not a page number (${pagination.notes?.find((note) => note.startsWith('next_page:'))}), so the listing was stopped with ${seen.size} groups read`,
			);
		}
		const next = pagination?.next_page;
		if (next === null || next === undefined || next <= page || answer.groups.length === 0) return;
		page = next;
	}
}
