// Everything the server can check about a send request (docs/api.md "Send a template message"),
// first failure wins. Order: body shape -> destination -> sender -> template -> components ->
// media.
import { checkComponents } from './component-rules';
import { isPlainObject, typeName } from './http-util';
import { normalizePhone, PHONE_FORMAT_HINT } from './phone';
import { senderByPhoneNumberId } from './senders';
import type { Checked, MediaType, Problem, SandboxState, Sender, Template } from './types';

export interface SendPlan {
	destination: string;
	sender: Sender;
	template: Template;
	componentList: unknown;
	mediaId?: string;
	/** file_name of the request, else the one captured at upload (docs/api.md "Upload media"). */
	fileName?: string;
}

const fail = (status: number, code: string, message: string): Checked<SendPlan> => ({
	ok: false,
	problem: { status, code, message },
});

/** Required string fields: absent is bad_request, wrong type or empty is invalid_format. */
function requiredString(body: Record<string, unknown>, field: string): Problem | string {
	const value = body[field];
	if (value === undefined || value === null) {
		return { status: 400, code: 'bad_request', message: `'${field}' is required (a string)` };
	}
	if (typeof value !== 'string') {
		const message = `'${field}' must be a string, got ${typeName(value)}`;
		return { status: 400, code: 'invalid_format', message };
	}
	if (value.trim() === '') {
		return { status: 400, code: 'invalid_format', message: `'${field}' must not be empty` };
	}
	return value;
}

/** Optional strings: omit them when unused; null or other types are refused. */
function optionalString(
	body: Record<string, unknown>,
	field: string,
): Problem | string | undefined {
	const value = body[field];
	if (value === undefined) return undefined;
	if (typeof value !== 'string' || value.trim() === '') {
		const message = `'${field}' must be a non-empty string when present (omit it otherwise), got ${value === '' ? 'an empty string' : typeName(value)}`;
		return { status: 400, code: 'invalid_format', message };
	}
	return value;
}

function findTemplate(state: SandboxState, sender: Sender, id: string): Checked<Template> {
	const own = (state.templates[sender.id] ?? []).find((t) => t.id === id);
	if (own) return { ok: true, value: own };
	const ownerId = Object.keys(state.templates).find((sid) =>
		state.templates[Number(sid)].some((t) => t.id === id),
	);
	const owner = state.senders.find((s) => String(s.id) === ownerId);
	const message = owner
		? `Template '${id}' belongs to sender ${owner.phone_number} (phone_number_id '${owner.phone_number_id}'), not to ${sender.phone_number}; send it from its own sender`
		: `Template '${id}' not found for sender ${sender.phone_number}; GET /v1/phone_number_ids/${sender.id}/templates lists its templates`;
	return { ok: false, problem: { status: 404, code: 'not_found', message } };
}

function checkMedia(state: SandboxState, plan: SendPlan, channel: string): Checked<SendPlan> {
	const { template, sender, mediaId, fileName } = plan;
	const format = template.header?.format;
	const needed: MediaType | null =
		format && format !== 'TEXT' ? (format.toLowerCase() as MediaType) : null;
	if (fileName !== undefined && format !== 'DOCUMENT') {
		const has = format ? `a ${format} header` : 'no header';
		return fail(
			400,
			'bad_request',
			`file_name applies to document templates only; template '${template.id}' has ${has}: remove file_name`,
		);
	}
	if (needed === null) {
		if (mediaId === undefined) return { ok: true, value: plan };
		return fail(
			400,
			'bad_request',
			`Template '${template.id}' has no document, image or video header; remove media_id`,
		);
	}
	if (mediaId === undefined) {
		return fail(
			400,
			'media_required',
			`Template '${template.id}' has a ${format} header: include media_id from a ${needed} upload (POST /v1/${channel}/media)`,
		);
	}
	const media = state.media.find((m) => m.media_id === mediaId);
	if (!media) {
		return fail(
			404,
			'not_found',
			`media_id '${mediaId}' is unknown: upload the ${needed} with POST /v1/${channel}/media and use the media_id it returns`,
		);
	}
	if (media.phone_number_id !== sender.phone_number_id) {
		return fail(
			400,
			'media_sender_mismatch',
			`media_id '${mediaId}' was uploaded for phone_number_id '${media.phone_number_id}', not '${sender.phone_number_id}'; upload the file for the sending number`,
		);
	}
	if (media.media_type !== needed) {
		return fail(
			400,
			'media_type_mismatch',
			`Template '${template.id}' has a ${format} header and needs ${needed} media, but media_id '${mediaId}' is ${media.media_type} (${media.mime_type})`,
		);
	}
	const effective = needed === 'document' ? (fileName ?? media.file_name) : undefined;
	return { ok: true, value: { ...plan, fileName: effective } };
}

export function validateSend(
	body: unknown,
	state: SandboxState,
	channel: string,
): Checked<SendPlan> {
	if (!isPlainObject(body)) {
		return fail(400, 'bad_request', `Request body must be a JSON object, got ${typeName(body)}`);
	}
	const strings: Record<string, string> = {};
	for (const field of ['destination', 'phone_number_id', 'template_id']) {
		const value = requiredString(body, field);
		if (typeof value !== 'string') return { ok: false, problem: value };
		strings[field] = value;
	}
	const list = body.component_list;
	if (list === undefined || list === null) {
		return fail(
			400,
			'bad_request',
			`'component_list' is required: send {"components": []} when the template has no variables`,
		);
	}
	if (!isPlainObject(list) || !Array.isArray(list.components)) {
		return fail(
			400,
			'invalid_format',
			`'component_list' must be an object whose 'components' member is an array`,
		);
	}
	const mediaId = optionalString(body, 'media_id');
	if (typeof mediaId === 'object') return { ok: false, problem: mediaId };
	const fileName = optionalString(body, 'file_name');
	if (typeof fileName === 'object') return { ok: false, problem: fileName };

	const destination = normalizePhone(strings.destination);
	if (destination === null) {
		return fail(
			400,
			'invalid_format',
			`destination '${strings.destination}' is not a valid phone number: ${PHONE_FORMAT_HINT}`,
		);
	}
	const sender = senderByPhoneNumberId(state, strings.phone_number_id);
	if (!sender.ok) return sender;
	const template = findTemplate(state, sender.value, strings.template_id);
	if (!template.ok) return template;
	if (template.value.status !== 'APPROVED') {
		return fail(
			400,
			'template_not_approved',
			`Template '${template.value.id}' is ${template.value.status}; only APPROVED templates can be sent`,
		);
	}
	const componentProblem = checkComponents(list.components, template.value);
	if (componentProblem) return { ok: false, problem: componentProblem };
	const plan: SendPlan = {
		destination,
		sender: sender.value,
		template: template.value,
		componentList: list,
		mediaId,
		fileName,
	};
	return checkMedia(state, plan, channel);
}
