// Names of BUTTONS fields (docs/api.md "Template send rules", rules 3, 4 and 11): a placeholder
// number, or an index-targeted `button:<n>`, `url:<n>`, `quick_reply:<n>`. `_` and `-` may replace
// `:` and the `_` inside `quick_reply`; the type word is matched case-insensitively. Anything else
// is malformed: the sandbox does not guess (no `quickreply`, no `btn`, no missing index).

export type ButtonTarget =
	| { kind: 'placeholder'; placeholder: number }
	| { kind: 'index'; type: 'button' | 'url' | 'quick_reply'; index: number };

export const ACCEPTED_BUTTON_NAMES =
	"a placeholder number such as '1', or an index-targeted name 'button:<n>', 'url:<n>' or 'quick_reply:<n>' where <n> is the zero-based button index ('_' or '-' may replace ':' and the '_' in quick_reply, e.g. 'button_0', 'quick-reply:1')";

const INDEXED = /^(button|url|quick[_-]reply)[:_-](\d+)$/i;
const PLACEHOLDER = /^[1-9]\d*$/;

export function parseButtonName(name: string): ButtonTarget | null {
	if (PLACEHOLDER.test(name)) return { kind: 'placeholder', placeholder: Number(name) };
	const match = INDEXED.exec(name);
	if (!match) return null;
	const word = match[1].toLowerCase();
	const type = word === 'button' ? 'button' : word === 'url' ? 'url' : 'quick_reply';
	return { kind: 'index', type, index: Number(match[2]) };
}
