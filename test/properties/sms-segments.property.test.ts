// Properties of the SMS part counter: GSM-7 texts cost 160 in one part or 153 per part, extension
// characters count twice, and any single character outside GSM-7 moves the whole text to UCS-2
// (70 / 67 per part, counted in UTF-16 code units). sms-parts-reference.property.test.ts checks
// the exact part count against a reference counter written from the standard.
import fc from 'fast-check';
import { countSmsSegments, isGsmCharacter } from '../../nodes/SmsLeopard/client/sms/sms-segments';

const RUNS = 2000;
const BASIC = [
	...'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡AZÄÖÑÜ§¿azäöñüà',
];
const EXTENSION = [...'^{}\\[~]|€\f'];
/** Characters people paste that are not GSM-7: curly quotes, emoji, accents, Cyrillic, CJK. */
const NON_GSM = ['’', '“', '😀', '👍🏽', 'ç', 'ж', '中', 'á', '\u00a0', '—'];

const gsmText = fc
	.array(fc.constantFrom(...BASIC, ...EXTENSION), { maxLength: 700 })
	.map((chars) => chars.join(''));
const anyText = fc.oneof(gsmText, fc.string({ unit: 'grapheme', maxLength: 400 }));

/** The rule as the issue states it, written independently of the module. */
function expectedParts(length: number, single: number, multi: number): number {
	if (length === 0) return 0;
	return length <= single ? 1 : Math.ceil(length / multi);
}

describe('SMS part counter', () => {
	it('counts a GSM-7 text in septets, extension characters twice', () => {
		fc.assert(
			fc.property(gsmText, (text) => {
				const chars = [...text];
				const septets = chars.reduce((n, c) => n + (EXTENSION.includes(c) ? 2 : 1), 0);
				const result = countSmsSegments(text);
				expect(result.encoding).toBe('GSM-7');
				expect(result.length).toBe(septets);
				expect(result.parts).toBe(expectedParts(septets, 160, 153));
				expect(result.nonGsmCharacters).toEqual([]);
			}),
			{ numRuns: RUNS },
		);
	});

	it('switches the whole text to UCS-2 when one character is outside GSM-7', () => {
		fc.assert(
			fc.property(gsmText, fc.constantFrom(...NON_GSM), fc.nat(), (text, odd, at) => {
				const position = at % (text.length + 1);
				const mixed = text.slice(0, position) + odd + text.slice(position);
				const result = countSmsSegments(mixed);
				expect(result.encoding).toBe('UCS-2');
				expect(result.length).toBe(mixed.length);
				expect(result.parts).toBe(expectedParts(mixed.length, 70, 67));
				// Reported per code point: a skin-toned emoji is two of them.
				for (const c of odd) expect(result.nonGsmCharacters).toContain(c);
			}),
			{ numRuns: RUNS },
		);
	});

	it('never costs fewer parts when text is added', () => {
		fc.assert(
			fc.property(anyText, anyText, (a, b) => {
				expect(countSmsSegments(a + b).parts).toBeGreaterThanOrEqual(countSmsSegments(a).parts);
			}),
			{ numRuns: RUNS },
		);
	});

	it('fits the text in its parts and needs every one of them', () => {
		fc.assert(
			fc.property(anyText, (text) => {
				const { length, parts, perPart, encoding, nonGsmCharacters } = countSmsSegments(text);
				expect(length).toBeLessThanOrEqual(parts * perPart);
				// A part is closed early only when a two-unit character would not fit in its last unit.
				if (parts > 1) expect(length).toBeGreaterThan((parts - 1) * (perPart - 1));
				expect(encoding === 'GSM-7').toBe([...text].every(isGsmCharacter));
				expect(nonGsmCharacters.length).toBeLessThanOrEqual(5);
			}),
			{ numRuns: RUNS },
		);
	});

	it.each([
		['a'.repeat(160), 'GSM-7', 160, 1],
		['a'.repeat(161), 'GSM-7', 161, 2],
		['a'.repeat(306), 'GSM-7', 306, 2],
		['a'.repeat(307), 'GSM-7', 307, 3],
		['€'.repeat(80), 'GSM-7', 160, 1],
		['€'.repeat(81), 'GSM-7', 162, 2],
		['ж'.repeat(70), 'UCS-2', 70, 1],
		['ж'.repeat(71), 'UCS-2', 71, 2],
		['ж'.repeat(134), 'UCS-2', 134, 2],
		['ж'.repeat(135), 'UCS-2', 135, 3],
		['😀'.repeat(35), 'UCS-2', 70, 1],
		['Don’t miss our sale', 'UCS-2', 19, 1],
		['', 'GSM-7', 0, 0],
	])('boundary: %j is %s, length %i, %i part(s)', (text, encoding, length, parts) => {
		expect(countSmsSegments(text)).toMatchObject({ encoding, length, parts });
	});
});
