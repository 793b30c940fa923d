/**
 * A number field as the node reads it at run time. The editor holds a typed number between its
 * bounds, but an expression can hand over anything ("abc", "", 1.5, 0, 100000, NaN, an object): each
 * is refused with the bound it breaks, never turned into NaN, rounded or clamped without a word.
 * Digits given as text ("20", what many expressions produce) are read as the number they spell.
 */

export interface NumberRule {
	min: number;
	/** The editor's maxValue, when the field has one. */
	max?: number;
	/** Counts (items, parts, recipients) take whole numbers only. */
	whole?: boolean;
	/** 0 means "none", and anything above it must be at least this (a rate near 0 is a typo). */
	lowestAboveZero?: number;
}

export type NumberReading = { ok: true; value: number } | { ok: false; problem: string };

/** `value` as a number within `rule`; undefined or null (an option never added) is `fallback`. */
export function readNumber(value: unknown, fallback: number, rule: NumberRule): NumberReading {
	if (value === undefined || value === null) return { ok: true, value: fallback };
	const number =
		typeof value === 'number'
			? value
			: typeof value === 'string' && value.trim() !== ''
				? Number(value)
				: Number.NaN;
	const problem = !Number.isFinite(number)
		? 'must be a number'
		: rule.whole && !Number.isInteger(number)
			? 'must be a whole number'
			: number < rule.min
				? `must be ${rule.min} or more`
				: rule.max !== undefined && number > rule.max
					? `must be ${rule.max} or less`
					: rule.lowestAboveZero !== undefined && number > 0 && number < rule.lowestAboveZero
						? `must be 0 (no limit) or at least ${rule.lowestAboveZero}`
						: undefined;
	if (problem) return { ok: false, problem: `${problem} (got ${shown(value)})` };
	return { ok: true, value: number };
}

/** The value as the user would recognise it, short: a long text or a big object is cut. */
function shown(value: unknown): string {
	let text: string;
	try {
		text = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
	} catch {
		text = Object.prototype.toString.call(value);
	}
	return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
