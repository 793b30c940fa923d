/**
 * Template-aware fields: from a template, the list of values it needs (for n8n's resource mapper),
 * and back from the mapped values to header, body and button variables. Field ids carry everything
 * needed to build the send (`body_2`, `button_0_url`), so a send works even where the template
 * listing is unavailable at run time.
 */
import type { ResourceMapperField } from 'n8n-workflow';
import type {
	ButtonValue,
	PlaceholderValue,
	TemplateDescription,
	TemplateVariables,
} from '../client';
import { MEDIA_MIME_TYPES, MEDIA_SIZE_LIMITS, formatBytes, headerMediaCategory } from '../client';

const SNIPPET_LENGTH = 60;

function snippet(text: string): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > SNIPPET_LENGTH ? `${flat.slice(0, SNIPPET_LENGTH - 1)}…` : flat;
}

/** Authentication templates take one code that fills the body and the copy-code button (rule 11). */
function isAuthentication(template: TemplateDescription): boolean {
	return (
		template.category.toUpperCase() === 'AUTHENTICATION' && template.bodyPlaceholders.includes(1)
	);
}

function field(id: string, displayName: string, required: boolean): ResourceMapperField {
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

function note(id: string, displayName: string): ResourceMapperField {
	return { ...field(id, displayName, false), readOnly: true };
}

function mediaHint(template: TemplateDescription): string | undefined {
	const category = headerMediaCategory(template);
	if (!category) return undefined;
	const types = MEDIA_MIME_TYPES[category]
		.map((type) => type.split('/')[1])
		.slice(0, 4)
		.join(', ');
	return `Header ${category}: set "Header Media" below to a media ID or an input binary file (${types}${MEDIA_MIME_TYPES[category].length > 4 ? ', …' : ''}; up to ${formatBytes(MEDIA_SIZE_LIMITS[category])})`;
}

export function templateFields(template: TemplateDescription): ResourceMapperField[] {
	const fields: ResourceMapperField[] = [];
	const auth = isAuthentication(template);
	const hint = mediaHint(template);
	if (hint) fields.push(note('note_header', hint));
	if (template.header?.format === 'TEXT') {
		for (const n of template.header.placeholders) {
			fields.push(
				field(`header_${n}`, `Header {{${n}}} · "${snippet(template.header.text ?? '')}"`, true),
			);
		}
	}
	if (auth) {
		fields.push(
			field(
				'auth_code',
				'Authentication code · fills {{1}} of the body and the copy-code button',
				true,
			),
		);
	}
	for (const n of template.bodyPlaceholders) {
		if (auth && n === 1) continue;
		fields.push(field(`body_${n}`, `Body {{${n}}} · "${snippet(template.body)}"`, true));
	}
	for (const button of template.buttons) {
		const name = `Button ${button.index + 1} "${button.text}"`;
		if (button.kind === 'URL' && button.urlPlaceholders.length > 0) {
			if (auth) continue;
			fields.push(
				field(
					`button_${button.index}_url`,
					`${name} · URL value: only the part replacing {{${button.urlPlaceholders[0]}}} in ${button.url}`,
					true,
				),
			);
		} else if (button.kind === 'QUICK_REPLY') {
			fields.push(
				field(
					`button_${button.index}_payload`,
					`${name} · quick reply payload, returned by the webhook when tapped (optional)`,
					false,
				),
			);
		} else if (button.kind === 'PHONE_NUMBER') {
			fields.push(
				note(
					`note_button_${button.index}`,
					`${name} · phone number button: sent as approved; a different number needs another template`,
				),
			);
		} else if (button.kind === 'FLOW') {
			fields.push(
				note(
					`note_button_${button.index}`,
					`${name} · Flow button: nothing to fill, the Flow token is created automatically`,
				),
			);
		}
	}
	return fields;
}

const FIELD_ID = /^(header|body)_(\d+)$|^button_(\d+)_(url|payload)$|^auth_code$/;

/** Mapped values (by field id) to variables; empty optional values are left out. */
export function variablesFromMappedValues(
	values: Record<string, unknown> | null | undefined,
): TemplateVariables {
	const header: PlaceholderValue[] = [];
	const body: PlaceholderValue[] = [];
	const buttons: ButtonValue[] = [];
	for (const [id, raw] of Object.entries(values ?? {})) {
		if (raw === null || raw === undefined || String(raw) === '') continue;
		const value = String(raw);
		const match = FIELD_ID.exec(id);
		if (!match) continue;
		if (id === 'auth_code') {
			body.push({ placeholder: 1, value });
			buttons.push({ kind: 'placeholder', placeholder: 1, value });
		} else if (match[1] === 'header') {
			header.push({ placeholder: Number(match[2]), value });
		} else if (match[1] === 'body') {
			body.push({ placeholder: Number(match[2]), value });
		} else {
			buttons.push(
				match[4] === 'url'
					? { kind: 'url', index: Number(match[3]), value }
					: { kind: 'quickReply', index: Number(match[3]), value },
			);
		}
	}
	return { header, body, buttons };
}
