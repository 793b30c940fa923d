/**
 * What a field list saved by an earlier version of the node (ids without a tag) says about the
 * template it was built for, read from its meaning only: the ids (what each value fills), the
 * template text a label quotes, the link a URL button's label shows, the header kind and the
 * buttons that took no value. Label wording, read-only notes and order changed between releases
 * (test/fixtures/template-fields/ holds every shape) and are not compared.
 */
import { type TemplateDescription, headerMediaCategory } from '../../client';
import { type FieldPlace, parseFieldId } from './field-ids';

export interface SavedField {
	id: string;
	displayName: string;
}

/** The template text a label quotes (`Body {{2}}: "Hi {{1}}, your…"`), without the cut mark. */
export function quotedText(label: string): string | undefined {
	const match = /"(.*)"/.exec(label);
	return match ? match[1].replace(/…$/, '') : undefined;
}

const flat = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

/** A quote of `text`, however long the label of its version let it be. */
function quotes(label: string, text: string | undefined): boolean {
	const match = /"(.*)"/.exec(label);
	if (!match) return true;
	const quoted = match[1];
	return quoted.endsWith('…') ? flat(text).startsWith(quoted.slice(0, -1)) : flat(text) === quoted;
}

/**
 * The part of a URL button's link a label shows: the whole pattern ("… in https://…/{{1}}"), its
 * end ("{{1}} of …/track/{{1}}") or the path before the value ("after …/track/").
 */
function linkShown(label: string): string | undefined {
	const match = /(?: in | of | after )(\S+)$/.exec(label);
	if (!match) return undefined;
	return match[1].replace(/^…/, '').replace(/\{\{\d+\}\}.*$/, '');
}

function buttonAt(template: TemplateDescription, index: number) {
	return template.buttons.find((button) => button.index === index);
}

/** Whether one saved field that carries a value means the same in `template`. */
function sameValueField(field: SavedField, place: FieldPlace, template: TemplateDescription) {
	if (place.part === 'header') return quotes(field.displayName, template.header?.text);
	if (place.part === 'body') return quotes(field.displayName, template.body);
	if (place.part !== 'button' || place.kind !== 'url') return true;
	const shown = linkShown(field.displayName);
	return !shown || (buttonAt(template, place.index)?.url ?? '').includes(shown);
}

/**
 * Whether a read-only field of an earlier version still holds: `note_header` and `header_media`
 * named the header's kind, `note_button_N` a phone number or Flow button.
 */
function sameNote(field: SavedField, template: TemplateDescription): boolean {
	const header = /^Header (image|document|video)\b/i.exec(field.displayName);
	if (field.id === 'note_header' || field.id === 'header_media') {
		return !header || headerMediaCategory(template) === header[1].toLowerCase();
	}
	const button = /^note_button_(\d+)$/.exec(field.id);
	if (!button) return true;
	const kind = buttonAt(template, Number(button[1]))?.kind;
	return kind === 'PHONE_NUMBER' || kind === 'FLOW';
}

/**
 * Whether fields saved without tags were built for `template` as it is: the same values to fill,
 * the same texts around them, the same header kind and buttons; `expected` is the template's own
 * field ids (untagged).
 */
export function savedFieldsMean(
	saved: SavedField[],
	template: TemplateDescription,
	expected: string[],
): boolean {
	const valueFields = saved.filter((field) => parseFieldId(field.id) !== undefined);
	const ids = new Set(valueFields.map((field) => field.id));
	if (ids.size !== expected.length || !expected.every((id) => ids.has(id))) return false;
	return (
		valueFields.every((field) =>
			sameValueField(field, parseFieldId(field.id)?.place as FieldPlace, template),
		) && saved.every((field) => sameNote(field, template))
	);
}
