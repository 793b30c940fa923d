// The contacts host: create and delete contacts (docs/api.md "Contacts") and, via groups-routes.ts,
// the group listing. Errors use the contacts family's {error, message} shape.
import { validateContact, type ContactInput } from './contact-rules';
import type { SandboxContext } from './context';
import { handleFetchGroups } from './groups-routes';
import { readJson } from './json-body';
import { ACCOUNT_ID } from './seed';
import type { Exchange, HostDefinition } from './server';
import { smsRoutes } from './sms-routes';
import { recountGroups } from './state';
import type { ContactRecord } from './types';

/** The create response: no account_id, group_ids or custom_metadata (docs/api.md "Contacts"). */
function publicContact(c: ContactRecord): object {
	return {
		id: c.id,
		name: c.name,
		phone_number: c.phone_number,
		email: c.email,
		created_at: c.created_at,
		updated_at: c.updated_at,
	};
}

/**
 * Upsert (the default) is a choice for the spec's "not stated": the same phone number within our
 * account updates that record (same id). Given name/email replace the old ones, group_ids are
 * added to the existing memberships and metadata fields are merged by name (newer value wins).
 */
function upsert(ctx: SandboxContext, input: ContactInput, now: string): ContactRecord {
	const existing =
		ctx.options.contactCreateMode === 'upsert'
			? ctx.state.contacts.find(
					(c) => c.account_id === ACCOUNT_ID && c.phone_number === input.phone_number,
				)
			: undefined;
	if (existing) {
		if (input.name !== undefined) existing.name = input.name;
		if (input.email !== undefined) existing.email = input.email;
		existing.group_ids = [...new Set([...existing.group_ids, ...input.group_ids])];
		for (const field of input.custom_metadata) {
			const old = existing.custom_metadata.find((f) => f.name === field.name);
			if (old) old.value = field.value;
			else existing.custom_metadata.push({ ...field });
		}
		existing.updated_at = now;
		return existing;
	}
	const created: ContactRecord = {
		id: ctx.counters.contact++,
		account_id: ACCOUNT_ID,
		// Absent name/email are answered as empty strings (the spec types them as strings).
		name: input.name ?? '',
		phone_number: input.phone_number,
		email: input.email ?? '',
		group_ids: input.group_ids,
		custom_metadata: input.custom_metadata,
		created_at: now,
		updated_at: now,
	};
	ctx.state.contacts.push(created);
	return created;
}

async function handleCreate(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const body = await readJson(ex);
	if (!body.ok) return ex.fail(body.problem);
	ex.record.body = body.value;
	const input = validateContact(body.value, ctx.state);
	if (!input.ok) return ex.fail(input.problem);
	const contact = upsert(ctx, input.value, new Date().toISOString());
	recountGroups(ctx.state);
	return ex.reply(201, publicContact(contact));
}

async function handleDelete(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const raw = ex.params[0];
	if (!/^[1-9]\d*$/.test(raw)) {
		const message = `Contact id '${raw}' is not valid: it must be a positive integer`;
		return ex.fail({ status: 400, code: 'bad_request', message });
	}
	// Compared as digits, never through a float: id 9007199254740993 must not find ...992.
	const id = raw;
	const index = ctx.state.contacts.findIndex((c) => String(c.id) === id);
	if (index < 0) {
		return ex.fail({ status: 404, code: 'not_found', message: `Contact ${id} not found` });
	}
	if (ctx.state.contacts[index].account_id !== ACCOUNT_ID) {
		const message = `You do not have permission to delete contact ${id}`;
		return ex.fail({ status: 403, code: 'forbidden', message });
	}
	// Permanent: the record, its group memberships and its metadata all go with it.
	ctx.state.contacts.splice(index, 1);
	recountGroups(ctx.state);
	return ex.reply(200, { message: 'Contact deleted successfully' });
}

export function contactsHost(): HostDefinition {
	return {
		host: 'contacts',
		routes: [
			{ pattern: /^\/v1\/contacts\/create$/, methods: { POST: handleCreate } },
			{ pattern: /^\/v1\/contacts\/([^/]+)$/, methods: { DELETE: handleDelete } },
			{ pattern: /^\/v1\/groups\/fetch$/, methods: { GET: handleFetchGroups } },
			...smsRoutes,
		],
		notFoundMessage(path) {
			if (/^\/v1\/(phone_number_ids|[^/]+\/(send|media))\b/.test(path)) {
				return `${path} is a chat endpoint: it lives on the chat host ({chat_url}), not the contacts host`;
			}
			return `No endpoint ${path} on the contacts host; it serves POST /v1/contacts/create, DELETE /v1/contacts/{id}, GET /v1/groups/fetch, POST /v1/sms/send, GET /v1/delivery_reports/{id} and GET /v1/balance`;
		},
	};
}
