/**
 * The commonest expression by far, `{{ $json.phone }}`, read without n8n's expression engine. n8n
 * builds a whole expression context (every global, luxon included) for each evaluation: for 10,000
 * SMS recipients that was over half of the node's own CPU. An expression that is nothing but a path
 * into the item's own fields has a value known without it: n8n's `$json` is the node's input item
 * at that index (n8n-workflow's WorkflowDataProxy, short syntax), so the same field of
 * `getInputData()[itemIndex].json` is the same value.
 *
 * Only text is taken this way: anything else (a number, a missing field, an object n8n would copy,
 * a key the item inherits rather than holds) goes to n8n as before, so the answer is always n8n's.
 */
import type { IDataObject } from 'n8n-workflow';

const NAME = String.raw`[A-Za-z_$][A-Za-z0-9_$]*`;
const STEP = String.raw`\.${NAME}|\[\s*(?:'[^'\\\n]*'|"[^"\\\n]*")\s*\]`;
/** `={{ $json.a.b }}`, `={{$json["a b"]}}`, `={{ $json['a'].b }}`: one expression, nothing around it. */
const ITEM_FIELD = new RegExp(String.raw`^=\{\{\s*\$json((?:${STEP})+)\s*\}\}$`);
const STEPS = new RegExp(STEP, 'g');
/** Names n8n's expression sandbox guards: left to n8n, whatever it answers. */
const GUARDED = new Set(['__proto__', 'prototype', 'constructor']);

/** The field names of an item-field expression, or undefined for any other value. */
export function itemFieldPath(raw: unknown): string[] | undefined {
	if (typeof raw !== 'string') return undefined;
	const match = ITEM_FIELD.exec(raw);
	if (!match) return undefined;
	const path = [...match[1].matchAll(STEPS)].map(([step]) =>
		step.startsWith('.') ? step.slice(1) : step.replace(/^\[\s*['"]|['"]\s*\]$/g, ''),
	);
	return path.some((key) => GUARDED.has(key)) ? undefined : path;
}

/** The text at `path` in `json`, own fields only; undefined when it is anything but text. */
export function textAt(json: IDataObject | undefined, path: string[]): string | undefined {
	let value: unknown = json;
	for (const key of path) {
		if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return typeof value === 'string' ? value : undefined;
}
