/**
 * How many SMS parts a text costs, before it is sent. A text in the GSM-7 alphabet fits 160
 * characters in one part and 153 per part once split (the rest of each part holds the joining
 * header); a single character outside it (an emoji, a curly quote, most accents) switches the whole
 * text to UCS-2: 70 in one part, 67 per part. GSM-7 extension characters (€ [ ] { } ^ ~ \ | and
 * form feed) take an escape plus the character, so they count twice. UCS-2 counts UTF-16 code units,
 * so an emoji outside the basic plane counts twice too.
 *
 * Networks split a long text as 3GPP TS 23.040 does: an escape pair or a surrogate pair is never cut
 * between two parts, so a part whose last free unit would hold half of one ends one unit short and
 * the pair starts the next part. Dividing the length by 153 or 67 undercounts such texts (152 × "a"
 * + "€" + 152 × "a" is 306 septets, yet 3 parts), so the parts are filled character by character.
 */

/** GSM 03.38 basic character set (the escape character itself is not a character of a text). */
const GSM_BASIC =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
	'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM 03.38 extension table: each costs two septets. */
const GSM_EXTENSION = '^{}\\[~]|€\f';

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegments {
	encoding: SmsEncoding;
	/** Length as the network counts it: septets for GSM-7, UTF-16 code units for UCS-2. */
	length: number;
	/** Parts the text is sent in; 0 for an empty text. */
	parts: number;
	/** Room in one part when the text is split (153 or 67), or alone (160 or 70). */
	perPart: number;
	/** Up to 5 distinct characters that forced UCS-2, so a marketer can replace them. */
	nonGsmCharacters: string[];
}

export const SMS_LIMITS = {
	'GSM-7': { single: 160, multi: 153 },
	'UCS-2': { single: 70, multi: 67 },
} as const;

/** The part sizes in one sentence, the same in the editor, the errors and the README. */
export const SMS_PART_SIZES_IN_WORDS =
	'160 characters in one part, 153 per part when longer; with an emoji, a curly quote or another character outside the GSM alphabet, 70 in one part, 67 per part when longer';

/** A regular expression source matching texts made of GSM-7 characters only (for the editor). */
const SPECIAL_IN_CLASS = new Set(['\\', ']', '[', '^', '-']);
export const GSM_ONLY_PATTERN = `^[${[...GSM_BASIC, ...GSM_EXTENSION]
	.map((character) => (SPECIAL_IN_CLASS.has(character) ? `\\${character}` : character))
	.join('')}]*$`;

export function isGsmCharacter(character: string): boolean {
	return BASIC.has(character) || EXTENSION.has(character);
}

export function countSmsSegments(text: string): SmsSegments {
	let septets = 0;
	// A set: a long text of many distinct characters (CJK) would make a list search quadratic.
	const nonGsm = new Set<string>();
	// for..of walks code points, so an emoji is one character here, not two halves.
	for (const character of text) {
		if (BASIC.has(character)) septets += 1;
		else if (EXTENSION.has(character)) septets += 2;
		else nonGsm.add(character);
	}
	const encoding: SmsEncoding = nonGsm.size === 0 ? 'GSM-7' : 'UCS-2';
	const length = encoding === 'GSM-7' ? septets : text.length;
	const limits = SMS_LIMITS[encoding];
	const single = length <= limits.single;
	return {
		encoding,
		length,
		parts: length === 0 ? 0 : single ? 1 : splitParts(text, encoding, limits.multi),
		perPart: single ? limits.single : limits.multi,
		nonGsmCharacters: [...nonGsm].slice(0, 5),
	};
}

/** Units one character takes: 2 for an escape pair (GSM-7) or a surrogate pair (UCS-2). */
function widthOf(character: string, encoding: SmsEncoding): number {
	return encoding === 'GSM-7' ? (EXTENSION.has(character) ? 2 : 1) : character.length;
}

/** Parts of a text too long for one: each holds `perPart` units, and no character is cut in two. */
function splitParts(text: string, encoding: SmsEncoding, perPart: number): number {
	let parts = 1;
	let used = 0;
	for (const character of text) {
		const width = widthOf(character, encoding);
		if (used + width > perPart) {
			parts += 1;
			used = 0;
		}
		used += width;
	}
	return parts;
}
