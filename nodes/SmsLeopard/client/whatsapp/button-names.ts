/**
 * Names of BUTTONS fields (docs/api.md "Template send rules", rules 3, 4, 11). A name is either a
 * placeholder number ("1") or index-targeted: `button:<n>`, `url:<n>`, `quick_reply:<n>`, where `_`
 * and `-` may replace `:` and the `_` of the type word (`button_0`, `quick-reply:1`, `url-2`). We
 * read every variant and write the canonical `type:<n>` form.
 */

export type ButtonTargetType = 'button' | 'url' | 'quick_reply';

export type ButtonName =
	| { form: 'placeholder'; placeholder: number }
	| { form: 'index'; type: ButtonTargetType; index: number };

const INDEX_TARGETED = /^(button|url|quick[_-]reply)[:_-](\d+)$/i;
const PLACEHOLDER = /^\d+$/;

export const BUTTON_NAME_FORMS =
	'a placeholder number such as "1", or button:<n>, url:<n> or quick_reply:<n> with <n> the zero-based button index (":" may also be "_" or "-")';

/**
 * Reads a BUTTONS field name; undefined when it is none of the forms rule 4 allows
 * (docs/api.md "Template send rules").
 */
export function parseButtonName(name: string): ButtonName | undefined {
	const trimmed = name.trim();
	// Numbers past 2^53 - 1 cannot be held exactly (and would print as "1e+21"): not a name.
	if (PLACEHOLDER.test(trimmed)) {
		const placeholder = Number(trimmed);
		return placeholder >= 1 && Number.isSafeInteger(placeholder)
			? { form: 'placeholder', placeholder }
			: undefined;
	}
	const match = INDEX_TARGETED.exec(trimmed);
	if (!match) return undefined;
	const index = Number(match[2]);
	if (!Number.isSafeInteger(index)) return undefined;
	const type = match[1].toLowerCase().replace('-', '_') as ButtonTargetType;
	return { form: 'index', type, index };
}

export function formatButtonName(name: ButtonName): string {
	return name.form === 'placeholder' ? String(name.placeholder) : `${name.type}:${name.index}`;
}

/** The canonical spelling of any accepted variant, or undefined when the name is malformed. */
export function canonicalButtonName(name: string): string | undefined {
	const parsed = parseButtonName(name);
	return parsed ? formatButtonName(parsed) : undefined;
}
