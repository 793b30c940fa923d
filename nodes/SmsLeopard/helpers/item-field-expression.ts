/**
 * The commonest expressions, `{{ $json.phone }}` and `{{ $json.name || 'there' }}`, read without
 * n8n's expression engine. n8n builds a whole expression context (every global, luxon included) for
 * each evaluation: for 10,000 SMS recipients that was over half of the node's own CPU, and for a
 * template campaign Values to Send cost as much again. An expression that is nothing but a path into
 * the item's own fields, maybe with a text to use when the field is empty, has a value known without
 * it: n8n's `$json` is the node's input item at that index (n8n-workflow's WorkflowDataProxy, short
 * syntax), so the same field of `getInputData()[itemIndex].json` is the same value, and `||` and `??`
 * are JavaScript's own.
 *
 * Only text is taken this way: anything else (a number, an object n8n would copy, a key the item
 * inherits rather than holds, a field inside one that is missing) goes to n8n as before, so the
 * answer is always n8n's.
 */
import type { IDataObject } from 'n8n-workflow';

const NAME = String.raw`[A-Za-z_$][A-Za-z0-9_$]*`;
const STEP = String.raw`\.${NAME}|\[\s*(?:'[^'\\\n]*'|"[^"\\\n]*")\s*\]`;
/** A text written in quotes, without escapes or braces (n8n's template splits on `}}`). */
const TEXT = String.raw`'[^'\\\n{}]*'|"[^"\\\n{}]*"`;
/**
 * `={{ $json.a.b }}`, `={{$json["a b"]}}`, `={{ $json['a'].b || 'there' }}`, `={{ $json.a ?? "" }}`:
 * one expression, nothing around it.
 */
const ITEM_FIELD = new RegExp(
	String.raw`^=\{\{\s*\$json((?:${STEP})+)(?:\s*(\|\||\?\?)\s*(${TEXT}))?\s*\}\}$`,
);
const STEPS = new RegExp(STEP, 'g');
/** Names n8n's expression sandbox guards: left to n8n, whatever it answers. */
const GUARDED = new Set(['__proto__', 'prototype', 'constructor']);

/** Reads an item's value of one expression: text, or undefined when n8n must answer. */
export type ItemTextReader = (json: IDataObject | undefined) => string | undefined;

interface ItemField {
	path: string[];
	/** `||`: the text when the field is empty (JavaScript's falsy); `??`: when null or absent. */
	otherwise?: { when: '||' | '??'; text: string };
}

function itemField(raw: unknown): ItemField | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = ITEM_FIELD.exec(raw);
	if (!match) return undefined;
	const path = [...match[1].matchAll(STEPS)].map(([step]) =>
		step.startsWith('.') ? step.slice(1) : step.replace(/^\[\s*['"]|['"]\s*\]$/g, ''),
	);
	if (path.some((key) => GUARDED.has(key))) return undefined;
	const [, , when, quoted] = match;
	if (!when) return { path };
	return { path, otherwise: { when: when as '||' | '??', text: quoted.slice(1, -1) } };
}

/** The field names of a plain item-field expression (no fallback), or undefined. */
export function itemFieldPath(raw: unknown): string[] | undefined {
	const field = itemField(raw);
	return field && !field.otherwise ? field.path : undefined;
}

/** How to read `raw` from an item without n8n, or undefined when it is not such an expression. */
export function itemTextReader(raw: unknown): ItemTextReader | undefined {
	const field = itemField(raw);
	if (!field) return undefined;
	const { path, otherwise } = field;
	if (!otherwise) return (json) => textAt(json, path);
	return (json) => {
		const found = valueAt(json, path);
		if (found === NOT_KNOWN) return undefined;
		const { value } = found;
		const empty = otherwise.when === '??' ? value == null : !value;
		if (empty) return otherwise.text;
		// Text that is not empty (under `??`, '' too) is itself; anything else is n8n's to answer.
		return typeof value === 'string' ? value : undefined;
	};
}

const NOT_KNOWN = Symbol('not known without n8n');

/**
 * The value at `path`, own fields only, undefined when the last field is absent altogether; not
 * known when a field on the way is not an object that holds the next one, or the last is inherited.
 */
function valueAt(
	json: IDataObject | undefined,
	path: string[],
): { value: unknown } | typeof NOT_KNOWN {
	let value: unknown = json;
	for (const [at, key] of path.entries()) {
		if (value === null || typeof value !== 'object') return NOT_KNOWN;
		if (!Object.hasOwn(value, key)) {
			// Absent, not inherited (`toString`): JavaScript's undefined, as in n8n.
			return at === path.length - 1 && !(key in value) ? { value: undefined } : NOT_KNOWN;
		}
		value = (value as Record<string, unknown>)[key];
	}
	return { value };
}

/** The text at `path` in `json`, own fields only; undefined when it is anything but text. */
function textAt(json: IDataObject | undefined, path: string[]): string | undefined {
	const found = valueAt(json, path);
	return found !== NOT_KNOWN && typeof found.value === 'string' ? found.value : undefined;
}
