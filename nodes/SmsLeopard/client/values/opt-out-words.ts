/**
 * The words that opt a number out of (or back into) messages, in one place: the trigger marks a
 * reply with them (`optOut`), and the example workflow and docs/opt-outs.md quote these lists.
 * A reply counts when, upper-cased with punctuation and extra spaces removed, it is one of them.
 */

export const OPT_OUT_WORDS: readonly string[] = [
	'STOP',
	'STOP PROMO',
	'STOP ALL',
	'UNSUBSCRIBE',
	'CANCEL',
	'QUIT',
	'END',
	'OPT OUT',
	'OPTOUT',
	// Swahili: stop, discontinue, remove (me)
	'ACHA',
	'SITISHA',
	'ONDOA',
];

export const OPT_IN_WORDS: readonly string[] = ['START', 'UNSTOP', 'SUBSCRIBE', 'ANZA'];

export type OptOutChoice = 'opt out' | 'opt in';

/** A reply as compared: upper case, anything but letters and digits a space, spaces collapsed. */
export function optOutWordForm(text: unknown): string | undefined {
	if (typeof text !== 'string') return undefined;
	const word = text
		.toUpperCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
	return word === '' ? undefined : word;
}

/** 'opt out' or 'opt in' when the reply is one of the words, else undefined. */
export function optOutWordOf(text: unknown): OptOutChoice | undefined {
	const word = optOutWordForm(text);
	if (word === undefined) return undefined;
	if (OPT_OUT_WORDS.includes(word)) return 'opt out';
	if (OPT_IN_WORDS.includes(word)) return 'opt in';
	return undefined;
}
