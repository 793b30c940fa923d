/**
 * Values to Send belong to the template and texts they were mapped for. After a switch of
 * template the editor may keep the old values (a fresh node's first switch did, seen in n8n 2.8.4),
 * and they would then fill the new template: "your order Leopard Shop has shipped". Before
 * anything is sent, what the saved fields mean is compared with the chosen template: the tag in
 * each id (field-ids.ts), or for fields saved by earlier versions, their ids and the texts their
 * labels quote (saved-field-meaning.ts). Presentation (label words, read-only notes, order) is
 * never compared. A workflow saved without fields (built by hand, or by an API) has nothing to
 * compare: it runs unchanged.
 */
import { SmsLeopardValidationError, type TemplateDescription } from '../../client';
import { echo } from '../../client/http/echo';
import { parseFieldId, tagFits } from './field-ids';
import { type SavedField, quotedText, savedFieldsMean } from './saved-field-meaning';
import { templateFields } from './template-fields';

/** What n8n saves for Values to Send: the values by field id, and the fields it showed. */
export interface MappedFields {
	value?: unknown;
	schema?: unknown;
}

/** The saved fields, read without trusting their shape (a workflow file may hold anything). */
function savedFields(schema: unknown): SavedField[] {
	if (!Array.isArray(schema)) return [];
	return schema.filter(
		(field): field is SavedField =>
			typeof field === 'object' &&
			field !== null &&
			typeof (field as SavedField).id === 'string' &&
			typeof (field as SavedField).displayName === 'string',
	);
}

function valueIds(value: unknown): string[] {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
		? Object.keys(value)
		: [];
}

/** Whether every tagged id (of a value or a field) is one `template` gives today. */
function tagsMatch(ids: string[], template: TemplateDescription): boolean {
	const offered = new Set(templateFields(template, 'untagged').map((field) => field.id));
	return ids.every((id) => {
		const parsed = parseFieldId(id);
		if (!parsed?.tag) return true;
		return offered.has(parsed.base) && tagFits(parsed, template);
	});
}

/** Whether the saved values and fields were mapped for `template` as it is today. */
export function fieldsBelongTo(mapped: MappedFields, template: TemplateDescription): boolean {
	const saved = savedFields(mapped.schema);
	if (!tagsMatch([...valueIds(mapped.value), ...saved.map((field) => field.id)], template)) {
		return false;
	}
	// Fields of an earlier version: their ids have no tag, their labels say what they fill.
	const untagged = saved.filter((field) => !parseFieldId(field.id)?.tag);
	if (!untagged.some((field) => parseFieldId(field.id))) return true;
	// The document's file name came with tagged ids (1.3): an earlier version never had it.
	const expected = templateFields(template, 'untagged')
		.map((field) => field.id)
		.filter((id) => parseFieldId(id)?.place.part !== 'documentFileName');
	return savedFieldsMean(untagged, template, expected);
}

/**
 * The ids the saved values and fields have, by what they fill (`body_2` to `body_2_t1a2b3c4d`, or
 * to `body_2` itself for an earlier version), when they were mapped for `template` as it is today.
 */
export function savedIdsFitting(
	mapped: MappedFields,
	template: TemplateDescription,
): Map<string, string> {
	if (!fieldsBelongTo(mapped, template)) return new Map();
	const ids = [...valueIds(mapped.value), ...savedFields(mapped.schema).map((field) => field.id)];
	return new Map(
		ids.flatMap((id) => {
			const parsed = parseFieldId(id);
			return parsed ? [[parsed.base, id] as const] : [];
		}),
	);
}

/** How the refusal names the template the values were mapped for. */
function mappedFor(
	mapped: MappedFields,
	chosen: TemplateDescription,
	listed: TemplateDescription[],
): string {
	const other = listed.find(
		(template) => template.id !== chosen.id && fieldsBelongTo(mapped, template),
	);
	if (other) return `template "${echo(other.name)}" (${echo(other.id)})`;
	const quoted = savedFields(mapped.schema)
		.map((field) => quotedText(field.displayName))
		.find(Boolean);
	return quoted
		? `another template, or an older text of this one (they quote "${echo(quoted)}…")`
		: 'another template, or an older text of this one';
}

/**
 * Refuses Values to Send mapped for another template than `chosen`, or for an older text of it;
 * `listed` is the sender's listing, to name the template they were mapped for.
 */
export function refuseFieldsOfAnotherTemplate(
	mapped: MappedFields,
	chosen: TemplateDescription,
	listed: TemplateDescription[],
): void {
	if (fieldsBelongTo(mapped, chosen)) return;
	throw new SmsLeopardValidationError([
		{
			field: 'templateFields',
			message: `were mapped for ${mappedFor(mapped, chosen, listed)}, not for the chosen template "${echo(chosen.name)}" (${echo(chosen.id)}), so their values would fill the wrong text: open the node and click Refresh Field List (the ⋮ menu of Values to Send), which drops the values mapped for the other text, then fill in the fields of "${echo(chosen.name)}"`,
		},
	]);
}
