/**
 * Template-aware fields: from a template, the list of values it needs (for n8n's resource mapper),
 * and back from the mapped values to header, body and button variables. Field ids carry everything
 * needed to build the send (`body_2_t1a2b3c4d`, `button_0_url`; field-ids.ts), so a send works even
 * where the template listing is unavailable at run time.
 */
import type { ResourceMapperField } from 'n8n-workflow';
import type {
	ButtonValue,
	PlaceholderValue,
	TemplateDescription,
	TemplateVariables,
} from '../../client';
import { SmsLeopardValidationError, numberTextProblem } from '../../client';
import { type ParsedFieldId, parseFieldId, taggedId } from './field-ids';

// The editor shows a field's label on one line of about 50 characters: say the essential first.
const SNIPPET_LENGTH = 40;

function snippet(text: string, length = SNIPPET_LENGTH): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}

/**
 * The link a URL button's value completes, up to its placeholder (WhatsApp puts it at the end):
 * `https://shop.example.com/track/{{1}}` gives `…/track/`.
 */
function linkBeforeValue(url: string | undefined): string {
	const text = url ?? '';
	const beforePlaceholder = text.includes('{{') ? text.slice(0, text.indexOf('{{')) : text;
	const withoutScheme = beforePlaceholder.replace(/^https?:\/\//, '');
	const slash = withoutScheme.indexOf('/');
	const path = slash >= 0 ? withoutScheme.slice(slash) : withoutScheme;
	return path.length > 24 ? `…${path.slice(-23)}` : `…${path}`;
}

/**
 * Authentication templates take one code that fills the body and the copy-code button
 * (docs/api.md "Template send rules", rule 11).
 */
function isAuthentication(template: TemplateDescription): boolean {
	return (
		template.category.toUpperCase() === 'AUTHENTICATION' && template.bodyPlaceholders.includes(1)
	);
}

function plainField(id: string, displayName: string, required: boolean): ResourceMapperField {
	return {
		id,
		displayName,
		required,
		defaultMatch: false,
		canBeUsedToMatch: false,
		display: true,
		type: 'string',
	};
}

/**
 * The id under which node versions before this one asked for a media header with the template's
 * fields. It is no longer offered (the header file has one place, Header Media), but a saved
 * workflow's value is still sent.
 */
export const HEADER_MEDIA_FIELD = 'header_media';

/** What the marketer reads for a document header's file name in Values to Send (version 1.3 on). */
export const DOCUMENT_FILE_NAME_LABEL = 'Document file name the recipient sees (optional)';

/**
 * The fields a template needs, labelled in the user's words with the template's own text:
 * `Body {{2}}: "Hi {{1}}, your order {{2}}…"`, `Button "Track": end of its link, after …/track/`.
 * Their ids carry the template and text they fill (field-ids.ts); `untagged` gives the ids of
 * earlier versions, for a workflow whose values were saved under them (resourceMapping.ts).
 */
export function templateFields(
	template: TemplateDescription,
	ids: 'tagged' | 'untagged' = 'tagged',
): ResourceMapperField[] {
	const field = (id: string, displayName: string, required: boolean) =>
		plainField(ids === 'tagged' ? taggedId(template, id) : id, displayName, required);
	const fields: ResourceMapperField[] = [];
	const auth = isAuthentication(template);
	// Only a document header has a name the recipient sees; empty sends the name given at upload.
	if (template.header?.format === 'DOCUMENT') {
		fields.push(field('document_file_name', DOCUMENT_FILE_NAME_LABEL, false));
	}
	if (template.header?.format === 'TEXT') {
		for (const n of template.header.placeholders) {
			fields.push(
				field(`header_${n}`, `Header {{${n}}}: "${snippet(template.header.text ?? '')}"`, true),
			);
		}
	}
	if (auth) {
		fields.push(field('auth_code', 'Authentication code (body and copy-code button)', true));
	}
	for (const n of template.bodyPlaceholders) {
		if (auth && n === 1) continue;
		fields.push(field(`body_${n}`, `Body {{${n}}}: "${snippet(template.body)}"`, true));
	}
	for (const button of template.buttons) {
		const name = `Button "${snippet(button.text, 20)}"`;
		if (button.kind === 'URL' && button.urlPlaceholders.length > 0) {
			if (auth) continue;
			// docs/api.md "Template send rules", rule 3: only the value that replaces the placeholder,
			// not the whole URL; said in plain words.
			fields.push(
				field(
					`button_${button.index}_url`,
					`${name}: end of its link, after ${linkBeforeValue(button.url)}`,
					true,
				),
			);
		} else if (button.kind === 'QUICK_REPLY') {
			fields.push(
				field(`button_${button.index}_payload`, `${name}: quick reply payload (optional)`, false),
			);
		}
		// Phone number and Flow buttons take no value: no field (the editor shows any field as an
		// input).
	}
	return fields;
}

/** The fields the editor of node `version` offers: the document's file name only from 1.3 on. */
export function fieldsOfVersion(
	fields: ResourceMapperField[],
	version: number,
): ResourceMapperField[] {
	return version >= 1.3
		? fields
		: fields.filter((each) => parseFieldId(each.id)?.place.part !== 'documentFileName');
}

/** The media ID typed into the template's fields, if any. */
export function mediaIdFromMappedValues(
	values: Record<string, unknown> | null | undefined,
): string | undefined {
	const raw = values?.[HEADER_MEDIA_FIELD];
	const text = raw === null || raw === undefined ? '' : String(raw).trim();
	return text || undefined;
}

/** The document file name typed in Values to Send, if any (node version 1.3 on). */
export function documentFileNameFromMappedValues(
	values: Record<string, unknown> | null | undefined,
): string | undefined {
	const entry = Object.entries(values ?? {}).find(
		([id]) => parseFieldId(id)?.place.part === 'documentFileName',
	);
	const raw = entry?.[1];
	const text = raw === null || raw === undefined ? '' : String(raw).trim();
	return text || undefined;
}

/** The name errors use for a mapped field, as the label helper knows it ("Body {{2}}"). */
function errorFieldName({ place }: ParsedFieldId): string {
	if (place.part === 'documentFileName') return 'documentFileName';
	if (place.part === 'header' || place.part === 'body')
		return `${place.part} {{${place.placeholder}}}`;
	if (place.part === 'button') {
		return `button ${place.kind === 'url' ? 'url' : 'quick_reply'}:${place.index}`;
	}
	return 'body {{1}}';
}

/**
 * A template value is one piece of text. An object or a list from an expression would go out as
 * "[object Object]" or "a,b", a function as its source, Infinity (JSON's 1e400) as "Infinity":
 * refused, as Define Below refuses them, so the user picks the value meant.
 */
function refuseUnusableValues(values: Record<string, unknown>): void {
	const issues = Object.entries(values)
		.map(([id, raw]) => ({ problem: problemOf(raw), parsed: parseFieldId(id) }))
		.filter(({ problem, parsed }) => parsed !== undefined && problem !== undefined)
		.map(({ problem, parsed }) => ({
			field: errorFieldName(parsed as ParsedFieldId),
			message: problem as string,
		}));
	if (issues.length > 0) throw new SmsLeopardValidationError(issues);
}

function problemOf(raw: unknown): string | undefined {
	if (typeof raw === 'number') return numberTextProblem(raw);
	if (typeof raw === 'function' || typeof raw === 'symbol') {
		return `must be text or a number, not a ${typeof raw}`;
	}
	if (typeof raw !== 'object' || raw === null) return undefined;
	return `must be text or a number, not ${Array.isArray(raw) ? 'a list' : 'an object'}: pick one value with an expression such as {{ $json.order.id }}`;
}

/** Mapped values (by field id) to variables; empty optional values are left out. */
export function variablesFromMappedValues(
	values: Record<string, unknown> | null | undefined,
): TemplateVariables {
	const header: PlaceholderValue[] = [];
	const body: PlaceholderValue[] = [];
	const buttons: ButtonValue[] = [];
	refuseUnusableValues(values ?? {});
	for (const [id, raw] of Object.entries(values ?? {})) {
		if (raw === null || raw === undefined || String(raw) === '') continue;
		const value = String(raw);
		const place = parseFieldId(id)?.place;
		if (!place || place.part === 'documentFileName') continue;
		if (place.part === 'auth') {
			body.push({ placeholder: 1, value });
			buttons.push({ kind: 'placeholder', placeholder: 1, value });
		} else if (place.part === 'header') {
			header.push({ placeholder: place.placeholder, value });
		} else if (place.part === 'body') {
			body.push({ placeholder: place.placeholder, value });
		} else {
			buttons.push(
				place.kind === 'url'
					? { kind: 'url', index: place.index, value }
					: { kind: 'quickReply', index: place.index, value },
			);
		}
	}
	return { header, body, buttons };
}
