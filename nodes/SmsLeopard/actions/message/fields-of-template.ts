/**
 * Template Fields belong to the template they were built for. After a switch of template the
 * editor may keep the old fields and values (a fresh node's first switch did in n8n 2.8.4, whenever
 * an expression of the node could not be resolved in the editor), and the old values would then
 * fill the new template: "your order 20% has shipped".
 *
 * Field ids carry the tag of the template and texts they were made for (template-fields.ts): a
 * value or a field whose tag is not the chosen template's refuses the item before anything is
 * sent, naming the template it was mapped for. Workflows saved before the tags have only the saved
 * field list (n8n's `schema`, labels quoting the template's texts) to compare. A workflow with
 * neither (built by hand, or by an API) has nothing to compare: it runs unchanged.
 */
import type { ResourceMapperField } from 'n8n-workflow';
import { SmsLeopardValidationError, type TemplateDescription } from '../../client';
import { echo } from '../../client/echo';
import {
	HEADER_MEDIA_FIELD,
	tagOf,
	templateFields,
	templateTag,
	untaggedId,
} from './template-fields';

type SavedField = Pick<ResourceMapperField, 'id' | 'displayName'>;

/** What n8n saves for Template Fields: the values by field id, and the fields it showed. */
export interface MappedFields {
	value?: unknown;
	schema?: unknown;
}

/** The template text a label quotes (`Body {{2}}: "Hi {{1}}, your…"`), without the cut mark. */
function quotedText(label: string): string | undefined {
	const match = /"(.*)"/.exec(label);
	return match ? match[1].replace(/…$/, '') : undefined;
}

/** Two quotes of one text, however long each label let it be. */
function sameText(saved: string | undefined, current: string | undefined): boolean {
	if (saved === undefined || current === undefined) return saved === current || saved === undefined;
	return saved.startsWith(current) || current.startsWith(saved);
}

/** The saved fields, read without trusting their shape (a workflow file may hold anything). */
function savedFields(schema: unknown): SavedField[] {
	if (!Array.isArray(schema)) return [];
	return schema
		.filter(
			(field): field is SavedField =>
				typeof field === 'object' &&
				field !== null &&
				typeof (field as SavedField).id === 'string' &&
				typeof (field as SavedField).displayName === 'string',
		)
		.filter((field) => field.id !== HEADER_MEDIA_FIELD);
}

/** Whether fields saved without tags (before them) are the ones `template` gives. */
function fieldsMatch(saved: SavedField[], template: TemplateDescription): boolean {
	const current = new Map(
		templateFields(template).map((field) => [untaggedId(field.id), field.displayName]),
	);
	if (saved.length !== current.size) return false;
	return saved.every((field) => {
		const label = current.get(untaggedId(field.id));
		return label !== undefined && sameText(quotedText(field.displayName), quotedText(label));
	});
}

/** Every template tag found in the saved values' and fields' ids. */
function tagsOf(mapped: MappedFields, saved: SavedField[]): string[] {
	const value = mapped.value;
	const ids = [
		...(typeof value === 'object' && value !== null ? Object.keys(value) : []),
		...saved.map((field) => field.id),
	];
	return [...new Set(ids.map(tagOf).filter((tag): tag is string => tag !== undefined))];
}

/** How the refusal names what the fields were built for. */
function mappedFor(
	saved: SavedField[],
	otherTags: string[],
	chosen: TemplateDescription,
	listed: TemplateDescription[],
): string {
	const other = listed.find(
		(template) =>
			template.id !== chosen.id &&
			(otherTags.length ? otherTags.includes(templateTag(template)) : fieldsMatch(saved, template)),
	);
	if (other) return `template "${echo(other.name)}" (${echo(other.id)})`;
	const quoted = saved.map((field) => quotedText(field.displayName)).find(Boolean);
	return quoted
		? `another template, or an older text of this one (they quote "${echo(quoted)}…")`
		: 'another template, or an older text of this one';
}

/**
 * Refuses Template Fields mapped for another template than `chosen`, or for an older text of it;
 * `listed` is the sender's listing, to name the template they were mapped for.
 */
export function refuseFieldsOfAnotherTemplate(
	mapped: MappedFields,
	chosen: TemplateDescription,
	listed: TemplateDescription[],
): void {
	const saved = savedFields(mapped.schema);
	const tags = tagsOf(mapped, saved);
	const otherTags = tags.filter((tag) => tag !== templateTag(chosen));
	const belongs = tags.length
		? otherTags.length === 0
		: saved.length === 0 || fieldsMatch(saved, chosen);
	if (belongs) return;
	throw new SmsLeopardValidationError([
		{
			field: 'templateFields',
			message: `were mapped for ${mappedFor(saved, otherTags, chosen, listed)}, not for the chosen template "${echo(chosen.name)}" (${echo(chosen.id)}), so their values would fill the wrong text: open the node, choose the template again (or click Refresh under Template Fields, which empties them), and map each field again`,
		},
	]);
}
