// Validation of POST /v1/contacts/create (docs/api.md "Contacts"). Length limits and formats beyond
// the spec are "not shown"; the sandbox checks types, the phone number, a minimal e-mail shape and
// that every group exists, and otherwise accepts.
import { isPlainObject, typeName } from './http-util';
import { normalizePhone, PHONE_FORMAT_HINT } from './phone';
import type { Checked, MetadataField, Problem, SandboxState } from './types';

export interface ContactInput {
	phone_number: string;
	name?: string;
	email?: string;
	group_ids: number[];
	custom_metadata: MetadataField[];
}

const bad = (code: string, message: string): Checked<never> => ({
	ok: false,
	problem: { status: 400, code, message } satisfies Problem,
});

function optionalString(body: Record<string, unknown>, field: string): Checked<string | undefined> {
	const value = body[field];
	if (value === undefined) return { ok: true, value: undefined };
	if (typeof value !== 'string') {
		return bad(
			'bad_request',
			`${field} must be a string when present (omit it otherwise), got ${typeName(value)}`,
		);
	}
	return { ok: true, value };
}

function checkGroupIds(value: unknown, state: SandboxState): Checked<number[]> {
	if (value === undefined) return { ok: true, value: [] };
	if (!Array.isArray(value) || !value.every((id) => Number.isInteger(id) && id > 0)) {
		return bad(
			'bad_request',
			'group_ids must be an array of positive integers (numbers, not strings)',
		);
	}
	const ids = [...new Set(value as number[])];
	const unknown = ids.filter((id) => !state.groups.some((g) => g.id === id));
	if (unknown.length > 0) {
		return bad(
			'invalid_group_ids',
			`Unknown group id(s): ${unknown.join(', ')}; GET /v1/groups/fetch lists the groups`,
		);
	}
	return { ok: true, value: ids };
}

function checkMetadata(value: unknown): Checked<MetadataField[]> {
	if (value === undefined) return { ok: true, value: [] };
	if (!isPlainObject(value) || !Array.isArray(value.fields)) {
		return bad(
			'bad_request',
			'custom_metadata must be an object {"fields": [{"name": "...", "value": "..."}]}',
		);
	}
	const fields: MetadataField[] = [];
	for (const [i, field] of value.fields.entries()) {
		if (!isPlainObject(field) || typeof field.name !== 'string' || field.name.trim() === '') {
			return bad('bad_request', `custom_metadata.fields[${i}].name must be a non-empty string`);
		}
		if (typeof field.value !== 'string') {
			return bad(
				'bad_request',
				`custom_metadata.fields[${i}].value (field '${field.name}') must be a string, got ${typeName(field.value)}`,
			);
		}
		if (fields.some((f) => f.name === field.name)) {
			return bad('bad_request', `custom_metadata field '${field.name}' is given twice`);
		}
		fields.push({ name: field.name, value: field.value });
	}
	return { ok: true, value: fields };
}

export function validateContact(body: unknown, state: SandboxState): Checked<ContactInput> {
	if (!isPlainObject(body))
		return bad('bad_request', `Request body must be a JSON object, got ${typeName(body)}`);
	const phone = body.phone_number;
	if (phone === undefined || phone === null) return bad('bad_request', 'phone_number is required');
	if (typeof phone !== 'string') {
		return bad('invalid_phone_number', `phone_number must be a string, got ${typeName(phone)}`);
	}
	const normalized = normalizePhone(phone);
	if (normalized === null) {
		return bad(
			'invalid_phone_number',
			`Invalid phone number format '${phone}': ${PHONE_FORMAT_HINT}`,
		);
	}
	const name = optionalString(body, 'name');
	if (!name.ok) return name;
	const email = optionalString(body, 'email');
	if (!email.ok) return email;
	if (email.value !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email.value)) {
		return bad(
			'invalid_email',
			`Invalid email '${email.value}': expected an address like name@example.com`,
		);
	}
	const groups = checkGroupIds(body.group_ids, state);
	if (!groups.ok) return groups;
	const metadata = checkMetadata(body.custom_metadata);
	if (!metadata.ok) return metadata;
	return {
		ok: true,
		value: {
			phone_number: normalized,
			name: name.value,
			email: email.value,
			group_ids: groups.value,
			custom_metadata: metadata.value,
		},
	};
}
