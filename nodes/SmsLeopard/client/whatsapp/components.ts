/**
 * The component builder: header, body and button values in, the `component_list` of a send request
 * out (docs/api.md "Send a template message"). People say "body variable 2" or "the quick reply
 * payload of button 1"; the service wants `{component_type, fields: [{name, value}]}`. This is
 * where one becomes the other, and where a raw `component_list` from a power user is checked with
 * the same rules.
 */
import { z } from 'zod';
import { BUTTON_NAME_FORMS, canonicalButtonName, parseButtonName } from './button-names';
import { SmsLeopardValidationError } from '../http/errors';
import { validateInput } from '../http/validation';
import { echo } from '../http/echo';
import { exactNumber } from '../values/number-text';
import { isPlainRecord } from '../http/plain-answer';

export type ComponentType = 'HEADER' | 'BODY' | 'BUTTONS';

export interface ComponentField {
	name: string;
	value: string;
}

export interface Component {
	component_type: ComponentType;
	fields: ComponentField[];
}

export interface ComponentList {
	components: Component[];
}

/** Value for a `{{n}}` placeholder of the header or body. */
export interface PlaceholderValue {
	placeholder: number;
	value: string;
}

/**
 * A button value, in the user's words:
 * - `url`: the value replacing the placeholder of URL button `index` (only the value, rule 3 of
 *   docs/api.md "Template send rules");
 * - `quickReply`: the payload returned by the webhook when quick reply button `index` is tapped
 *   (rule 5);
 * - `button`: a value for button `index` whatever its type;
 * - `placeholder`: a value by placeholder number, as authentication-code templates take it
 *   (rule 11).
 */
export type ButtonValue =
	| { kind: 'url'; index: number; value: string }
	| { kind: 'quickReply'; index: number; value: string }
	| { kind: 'button'; index: number; value: string }
	| { kind: 'placeholder'; placeholder: number; value: string };

export interface TemplateVariables {
	header?: PlaceholderValue[];
	body?: PlaceholderValue[];
	buttons?: ButtonValue[];
}

const value = z
	.string({ invalid_type_error: 'must be text', required_error: 'is required' })
	.min(1, 'is empty: give the value, or remove the entry');
const placeholder = z
	.number({ invalid_type_error: 'must be a whole number', required_error: 'is required' })
	.int('must be a whole number')
	.min(1, 'must be 1 or more (placeholders are {{1}}, {{2}}, ...)')
	// Past 2^53 - 1 a number is not exact and String() writes "1e+21": not a placeholder name.
	.max(Number.MAX_SAFE_INTEGER, 'is too large');
const index = z
	.number({ invalid_type_error: 'must be a whole number', required_error: 'is required' })
	.int('must be a whole number')
	.min(0, 'must be 0 or more (the first button is 0)')
	.max(Number.MAX_SAFE_INTEGER, 'is too large');

const placeholderValue = z.object({ placeholder, value });
const buttonValue = z.discriminatedUnion(
	'kind',
	[
		z.object({ kind: z.literal('url'), index, value }),
		z.object({ kind: z.literal('quickReply'), index, value }),
		z.object({ kind: z.literal('button'), index, value }),
		z.object({ kind: z.literal('placeholder'), placeholder, value }),
	],
	{
		errorMap: () => ({ message: 'kind must be one of url, quickReply, button, placeholder' }),
	},
);

function noDuplicates<T>(keyOf: (item: T) => string, what: (key: string) => string) {
	return (items: T[], context: z.RefinementCtx) => {
		const seen = new Set<string>();
		items.forEach((item, position) => {
			const key = keyOf(item);
			if (seen.has(key)) {
				context.addIssue({
					code: z.ZodIssueCode.custom,
					path: [position],
					message: `${what(key)} is given twice: keep one`,
				});
			}
			seen.add(key);
		});
	};
}

function buttonKey(button: z.infer<typeof buttonValue>): string {
	if (button.kind === 'placeholder') return String(button.placeholder);
	return `button ${button.index}`;
}

const placeholderList = z.array(placeholderValue).superRefine(
	noDuplicates(
		(item) => String(item.placeholder),
		(key) => `placeholder {{${key}}}`,
	),
);

export const templateVariablesSchema = z
	.object({
		header: placeholderList.optional(),
		body: placeholderList.optional(),
		buttons: z
			.array(buttonValue)
			.superRefine(
				noDuplicates(buttonKey, (key) => (/^\d+$/.test(key) ? `button placeholder ${key}` : key)),
			)
			.optional(),
	})
	.strict();

function buttonFieldName(button: ButtonValue): string {
	switch (button.kind) {
		case 'url':
			return `url:${button.index}`;
		case 'quickReply':
			return `quick_reply:${button.index}`;
		case 'button':
			return `button:${button.index}`;
		case 'placeholder':
			return String(button.placeholder);
	}
}

function byPlaceholder(values: PlaceholderValue[]): ComponentField[] {
	return [...values]
		.sort((a, b) => a.placeholder - b.placeholder)
		.map((item) => ({ name: String(item.placeholder), value: item.value }));
}

/** The schema's `placeholder` (a whole number from 1), read plainly. */
function plainPlaceholder(value: unknown): value is number {
	return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** The schema's button `index` (a whole number from 0), read plainly. */
function plainIndex(value: unknown): value is number {
	return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** The schema's `value` (text, not empty), read plainly. */
function plainValue(value: unknown): value is string {
	return typeof value === 'string' && value !== '';
}

/**
 * A list as templateVariablesSchema reads it: every entry a plain record that `readEntry` takes,
 * none given twice by `keyOf` (the schema's noDuplicates); undefined to leave the list to zod.
 */
function plainList<T>(
	list: unknown,
	readEntry: (entry: Record<string, unknown>) => T | undefined,
	keyOf: (entry: T) => unknown,
): T[] | undefined {
	if (!Array.isArray(list)) return undefined;
	const seen = new Set<unknown>();
	const read: T[] = [];
	for (const entry of list as unknown[]) {
		if (!isPlainRecord(entry)) return undefined;
		const item = readEntry(entry);
		if (item === undefined) return undefined;
		const key = keyOf(item);
		if (seen.has(key)) return undefined;
		seen.add(key);
		read.push(item);
	}
	return read;
}

function plainPlaceholderValue({ placeholder, value }: Record<string, unknown>) {
	return plainPlaceholder(placeholder) && plainValue(value) ? { placeholder, value } : undefined;
}

const BUTTON_INDEX_KINDS: ReadonlySet<unknown> = new Set(['url', 'quickReply', 'button']);

function plainButtonValue(entry: Record<string, unknown>): ButtonValue | undefined {
	const { kind, index, placeholder, value } = entry;
	if (!plainValue(value)) return undefined;
	if (kind === 'placeholder') {
		return plainPlaceholder(placeholder) ? { kind, placeholder, value } : undefined;
	}
	if (!BUTTON_INDEX_KINDS.has(kind) || !plainIndex(index)) return undefined;
	return { kind: kind as 'url' | 'quickReply' | 'button', index, value };
}

/**
 * templateVariablesSchema's reading of usual values, without zod: every item is checked before the
 * first send, and these are read once per item. Anything unusual is left to zod, which names what
 * is wrong; test/client/plain-inputs.test.ts holds this to the schema.
 */
export function readTemplateVariablesPlainly(variables: unknown): TemplateVariables | undefined {
	if (!isPlainRecord(variables)) return undefined;
	const read: TemplateVariables = {};
	for (const key of Object.keys(variables)) {
		const list = variables[key];
		// .strict(): a field of another name is refused even when it holds undefined.
		if (key !== 'header' && key !== 'body' && key !== 'buttons') return undefined;
		if (list === undefined) continue;
		if (key === 'header' || key === 'body') {
			const entries = plainList(list, plainPlaceholderValue, (entry) => entry.placeholder);
			if (entries === undefined) return undefined;
			read[key] = entries;
		} else {
			const entries = plainList(list, plainButtonValue, buttonKey);
			if (entries === undefined) return undefined;
			read.buttons = entries;
		}
	}
	return read;
}

/** Typed values in, `component_list` out. Components without values are left out. */
export function buildComponentList(
	variables: TemplateVariables,
	fieldPrefix = 'variables',
): ComponentList {
	const checked =
		readTemplateVariablesPlainly(variables) ??
		validateInput(templateVariablesSchema, variables, fieldPrefix);
	const components: Component[] = [];
	if (checked.header?.length) {
		components.push({ component_type: 'HEADER', fields: byPlaceholder(checked.header) });
	}
	if (checked.body?.length) {
		components.push({ component_type: 'BODY', fields: byPlaceholder(checked.body) });
	}
	if (checked.buttons?.length) {
		components.push({
			component_type: 'BUTTONS',
			fields: checked.buttons.map((button) => ({
				name: buttonFieldName(button),
				value: button.value,
			})),
		});
	}
	return { components };
}

const PLACEHOLDER_NUMBER = /^[1-9]\d*$/;

const rawField = z.object({
	name: z.union([z.string(), exactNumber], {
		errorMap: () => ({ message: 'must be text such as "1" or "quick_reply:0"' }),
	}),
	// A number is sent as its text only while that text is exact (no "Infinity" for 1e400).
	value: z.union([z.string(), exactNumber], {
		errorMap: () => ({ message: 'must be text' }),
	}),
});

const rawComponent = z.object({
	component_type: z.preprocess(
		(type) => (typeof type === 'string' ? type.trim().toUpperCase() : type),
		z.enum(['HEADER', 'BODY', 'BUTTONS'], {
			errorMap: () => ({ message: 'must be HEADER, BODY or BUTTONS' }),
		}),
	),
	fields: z.array(rawField, { required_error: 'is required (an array of {name, value})' }),
});

const rawComponentList = z
	.object({
		components: z.array(rawComponent, {
			required_error: 'is required (an array of components)',
			invalid_type_error: 'must be an array of components',
		}),
	})
	.superRefine((list, context) => {
		const seenTypes = new Set<string>();
		list.components.forEach((component, position) => {
			if (seenTypes.has(component.component_type)) {
				context.addIssue({
					code: z.ZodIssueCode.custom,
					path: ['components', position, 'component_type'],
					message: `${component.component_type} appears twice: put all its fields in one component`,
				});
			}
			seenTypes.add(component.component_type);
			const seenNames = new Set<string>();
			component.fields.forEach((field, fieldPosition) => {
				const name = String(field.name).trim();
				const path = ['components', position, 'fields', fieldPosition];
				if (String(field.value).trim() === '') {
					context.addIssue({
						code: z.ZodIssueCode.custom,
						path: [...path, 'value'],
						message: 'is empty',
					});
				}
				if (component.component_type === 'BUTTONS') {
					if (!parseButtonName(name)) {
						context.addIssue({
							code: z.ZodIssueCode.custom,
							path: [...path, 'name'],
							message: `"${echo(name)}" is not a button name: use ${BUTTON_NAME_FORMS}`,
						});
					}
				} else if (!PLACEHOLDER_NUMBER.test(name)) {
					context.addIssue({
						code: z.ZodIssueCode.custom,
						path: [...path, 'name'],
						message: `"${echo(name)}" is not a placeholder number: ${component.component_type} fields are named "1", "2", ... for {{1}}, {{2}}, ...`,
					});
				}
				const key = canonicalButtonName(name) ?? name;
				if (seenNames.has(key)) {
					context.addIssue({
						code: z.ZodIssueCode.custom,
						path: [...path, 'name'],
						message: `"${echo(name)}" is given twice in ${component.component_type}`,
					});
				}
				seenNames.add(key);
			});
		});
	});

/** At most HEADER, BODY and BUTTONS once each. */
const MAX_COMPONENTS = 3;

/**
 * Refuses a list with more components than a template can have before checking each one: checking
 * a megabyte of components one by one takes seconds, and they cannot all be right anyway.
 */
function refuseTooManyComponents(parsed: unknown, fieldPrefix: string): void {
	if (typeof parsed !== 'object' || parsed === null) return;
	const components = (parsed as { components?: unknown }).components;
	if (!Array.isArray(components) || components.length <= MAX_COMPONENTS) return;
	throw new SmsLeopardValidationError([
		{
			field: `${fieldPrefix}.components`,
			message: `has ${components.length} components: give at most one HEADER, one BODY and one BUTTONS component`,
		},
	]);
}

/**
 * Checks a hand-written `component_list` (the node's JSON mode) by the rules of
 * docs/api.md "Template send rules" and returns it with names in canonical form and values as
 * text. Accepts the object itself or a JSON string.
 */
export function normalizeComponentList(
	input: unknown,
	fieldPrefix = 'componentList',
): ComponentList {
	let parsed = input;
	if (typeof input === 'string') {
		// The reason is kept and thrown after the catch: see settle.ts for why.
		let invalidJson: string | undefined;
		try {
			parsed = JSON.parse(input);
		} catch (error) {
			invalidJson = error instanceof Error ? error.message : String(error);
		}
		if (invalidJson !== undefined) {
			throw new SmsLeopardValidationError([
				{ field: fieldPrefix, message: `is not valid JSON (${invalidJson})` },
			]);
		}
	}
	if (Array.isArray(parsed)) parsed = { components: parsed };
	refuseTooManyComponents(parsed, fieldPrefix);
	const checked = validateInput(rawComponentList, parsed, fieldPrefix);
	return {
		components: checked.components.map((component) => ({
			component_type: component.component_type,
			fields: component.fields.map((field) => {
				const name = String(field.name).trim();
				return {
					name: component.component_type === 'BUTTONS' ? (canonicalButtonName(name) ?? name) : name,
					value: String(field.value),
				};
			}),
		})),
	};
}
