/**
 * Template Fields belong to the template they were built for. n8n saves the fields it showed (the
 * resource mapper's `schema`, labels quoting the template's texts) beside the values; after a
 * switch of template the editor may keep the old ones (a fresh node's first switch did, seen in
 * n8n 2.8.4), and the old values would then fill the new template: "your order 20% has shipped".
 * Before anything is sent, the saved fields are compared with the ones the chosen template gives
 * today: other field ids, or labels quoting another text, refuse the item, naming both templates.
 * A workflow saved without fields (built by hand, or by an API) has nothing to compare: unchanged.
 */
import type { ResourceMapperField } from 'n8n-workflow';
import { SmsLeopardValidationError, type TemplateDescription } from '../../client';
import { echo } from '../../client/http/echo';
import { HEADER_MEDIA_FIELD, templateFields } from './template-fields';

type SavedField = Pick<ResourceMapperField, 'id' | 'displayName'>;

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

/** Whether fields saved in the workflow are the ones `template` gives. */
function fieldsMatch(saved: SavedField[], template: TemplateDescription): boolean {
	const current = new Map(templateFields(template).map((field) => [field.id, field.displayName]));
	if (saved.length !== current.size) return false;
	return saved.every(
		(field) =>
			current.has(field.id) &&
			sameText(quotedText(field.displayName), quotedText(current.get(field.id) ?? '')),
	);
}

/** How the refusal names the template the fields were built for. */
function mappedFor(
	saved: SavedField[],
	chosen: TemplateDescription,
	listed: TemplateDescription[],
) {
	const other = listed.find(
		(template) => template.id !== chosen.id && fieldsMatch(saved, template),
	);
	if (other) return `template "${echo(other.name)}" (${echo(other.id)})`;
	const quoted = saved.map((field) => quotedText(field.displayName)).find(Boolean);
	return quoted
		? `another template, or an older text of this one (they quote "${echo(quoted)}…")`
		: 'another template, or an older version of this one';
}

/**
 * Refuses Template Fields saved for another template than `chosen`; `listed` is the sender's
 * listing, to name the template they were built for.
 */
export function refuseFieldsOfAnotherTemplate(
	schema: unknown,
	chosen: TemplateDescription,
	listed: TemplateDescription[],
): void {
	const saved = savedFields(schema);
	if (saved.length === 0 || fieldsMatch(saved, chosen)) return;
	throw new SmsLeopardValidationError([
		{
			field: 'templateFields',
			message: `were mapped for ${mappedFor(saved, chosen, listed)}, not for the chosen template "${echo(chosen.name)}" (${echo(chosen.id)}), so their values would fill the wrong text: open the node, click Refresh under Template Fields (or choose the template again), and map each field again (Refresh keeps a value typed under the same field name: retype each one)`,
		},
	]);
}
