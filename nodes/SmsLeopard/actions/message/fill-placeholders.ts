/**
 * Customized SMS texts: `{name}` or `{order.id}` in the message is replaced by that field of the
 * item, so one pattern gives each recipient their own text. A placeholder without a value is an
 * error naming it: sending "Dear {name}" to a customer is worse than not sending.
 *
 * Only the item's own fields count. A plain lookup would also find what every JavaScript object
 * inherits: `{constructor}` or `{toString}` would send the source text of a function, `{__proto__}`
 * an "[object Object]". Such a name is a field the item does not have, so it fails like any other
 * missing field. A value is text, a number whose text is exact, or true/false; anything else (an
 * object, a list, a function, Infinity, NaN, a number that lost digits) is refused, naming it.
 */
import { SmsLeopardValidationError, numberTextProblem } from '../../client';

const PLACEHOLDER = /\{([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\}/g;

/** The value at `path` through own fields only; undefined when any step is missing. */
function valueAt(json: Record<string, unknown>, path: string): unknown {
	let value: unknown = json;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

/** The text of a field's value, or why it has none. */
function textOf(value: unknown): { text: string } | { problem: string } {
	if (typeof value === 'string') return { text: value };
	if (typeof value === 'boolean' || typeof value === 'bigint') return { text: String(value) };
	if (typeof value === 'number') {
		const problem = numberTextProblem(value);
		return problem ? { problem } : { text: String(value) };
	}
	return { problem: 'missing' };
}

/** n8n's own `{{ $json.name }}` typed without making the field an expression: sent as written. */
const UNEVALUATED_EXPRESSION = /\{\{[^{}]*\}\}/g;

/**
 * The placeholders of a text that nothing would fill, each once: `{name}`, `{order.id}`, and an
 * n8n expression typed into a field that is not one (`{{ $json.name }}`).
 */
export function placeholdersOf(text: string): string[] {
	const expressions = [...text.matchAll(UNEVALUATED_EXPRESSION)].map((match) => match[0]);
	const fields = [...text.replace(UNEVALUATED_EXPRESSION, '').matchAll(PLACEHOLDER)].map(
		(match) => match[0],
	);
	return [...new Set([...expressions, ...fields])];
}

export function fillPlaceholders(pattern: string, json: Record<string, unknown>): string {
	const missing: string[] = [];
	const unusable: string[] = [];
	const text = pattern.replace(PLACEHOLDER, (whole, path: string) => {
		const filled = textOf(valueAt(json, path));
		if ('text' in filled) return filled.text;
		if (filled.problem === 'missing') missing.push(whole);
		else unusable.push(`${whole} ${filled.problem}`);
		return whole;
	});
	const issues = [
		...(missing.length
			? [
					{
						field: 'message',
						message: `has placeholder(s) ${missing.join(', ')} that the item has no text or number for: add the field(s) to the item or correct the placeholder`,
					},
				]
			: []),
		...unusable.map((problem) => ({ field: 'message', message: `placeholder ${problem}` })),
	];
	if (issues.length) throw new SmsLeopardValidationError(issues);
	return text;
}
