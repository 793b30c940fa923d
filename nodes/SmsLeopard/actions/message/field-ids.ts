/**
 * The ids of Template Fields ("Values to Send"). Each names what its value fills (`body_2`,
 * `button_0_url`) and, since 0.2, the template and text it was mapped for: `body_2_t1a2b3c4d`, a
 * short hash of the template's id and language and the text around the placeholder. n8n keeps a
 * value only under an id its field list still has, so after a switch of template (or an edit of
 * the text in the dashboard) Refresh drops a value meant for another text instead of sending it.
 * Ids without the hash were saved by earlier versions and are read as before.
 */
import { createHash } from 'crypto';
import type { TemplateDescription } from '../../client';

const TAG = '(?:_t([0-9a-f]{8}))?';

/**
 * `header_1`, `body_2`, `button_0_url`, `button_1_payload`, `auth_code`, `document_file_name`,
 * each maybe tagged.
 */
const FIELD_ID = new RegExp(
	`^(?:(header|body)_(\\d+)|button_(\\d+)_(url|payload)|(auth_code)|(document_file_name))${TAG}$`,
);

/** What a field id says its value fills. */
export type FieldPlace =
	| { part: 'header'; placeholder: number }
	| { part: 'body'; placeholder: number }
	| { part: 'button'; index: number; kind: 'url' | 'payload' }
	| { part: 'auth' }
	/** A document header's file name as the recipient sees it (node version 1.3 on). */
	| { part: 'documentFileName' };

export interface ParsedFieldId {
	/** The id without its tag: `body_2`. */
	base: string;
	place: FieldPlace;
	tag?: string;
}

/** The parts of a field id, or undefined for an id that carries no value (a note, header_media). */
export function parseFieldId(id: string): ParsedFieldId | undefined {
	const match = FIELD_ID.exec(id);
	if (!match) return undefined;
	const tag = match[7];
	const base = tag ? id.slice(0, -(tag.length + 2)) : id;
	if (match[1]) {
		const part = match[1] === 'header' ? 'header' : 'body';
		return { base, tag, place: { part, placeholder: +match[2] } };
	}
	if (match[3]) {
		return {
			base,
			tag,
			place: { part: 'button', index: +match[3], kind: match[4] as 'url' | 'payload' },
		};
	}
	if (match[6]) return { base, tag, place: { part: 'documentFileName' } };
	return { base, tag, place: { part: 'auth' } };
}

/** The texts a field's value completes: what makes it the same field, whatever its label says. */
function textsFilled(template: TemplateDescription, place: FieldPlace): unknown[] {
	if (place.part === 'header') return ['header', template.header?.format, template.header?.text];
	if (place.part === 'body' || place.part === 'auth') return [place.part, template.body];
	if (place.part === 'documentFileName') return [place.part, template.header?.format];
	const button = template.buttons.find((each) => each.index === place.index);
	return ['button', place.index, button?.kind, button?.text, button?.url ?? ''];
}

/**
 * Eight hex digits for a field of `template`: the same in the editor and at run time, different
 * for another template, language or text. The template's status is left out: a template approved
 * since keeps its values.
 */
export function fieldTag(template: TemplateDescription, place: FieldPlace): string {
	const meaning = [template.id, template.language, ...textsFilled(template, place)];
	return createHash('sha256').update(JSON.stringify(meaning)).digest('hex').slice(0, 8);
}

/**
 * The tag of a short-lived earlier shape (a3e9921, in test/fixtures/template-fields/): one hash of
 * the whole template for all its fields. Values saved under it still send while it holds.
 */
function wholeTemplateTag(template: TemplateDescription): string {
	const texts = [
		template.id,
		template.header?.format ?? '',
		template.header?.text ?? '',
		template.body,
		template.buttons.map((button) => [button.kind, button.text, button.url ?? '']),
	];
	return createHash('sha256').update(JSON.stringify(texts)).digest('hex').slice(0, 8);
}

/** Whether a tagged id's tag is the one its field of `template` has (today's or the earlier one). */
export function tagFits(parsed: ParsedFieldId, template: TemplateDescription): boolean {
	return (
		parsed.tag === fieldTag(template, parsed.place) || parsed.tag === wholeTemplateTag(template)
	);
}

/** The id a field of `template` gets: `body_2_t1a2b3c4d`. */
export function taggedId(template: TemplateDescription, base: string): string {
	const parsed = parseFieldId(base);
	return parsed ? `${base}_t${fieldTag(template, parsed.place)}` : base;
}
