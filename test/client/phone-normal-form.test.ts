/**
 * The opt-out list's one normal form of a number: every way people and gateways write one Kenyan
 * number comes out as +254712345678, generated (prefixes × separators × where they fall), and
 * what is not a number comes out null.
 */
import fc from 'fast-check';
import { phoneNormalForm } from '../../nodes/SmsLeopard/client';

const NATIONAL = '712345678';
const NORMAL = '+254712345678';
const PREFIXES = ['0', '254', '+254', '00254', '+ 254', '(+254) ', '+254 ', '00 254 '];
const SEPARATORS = [' ', '-', '.', '  ', ' - ', '/'];

/** The national digits cut into groups at the given places, joined by one separator. */
function written(prefix: string, cuts: number[], separator: string): string {
	const groups: string[] = [];
	let from = 0;
	for (const cut of [...cuts, NATIONAL.length]) {
		groups.push(NATIONAL.slice(from, cut));
		from = cut;
	}
	return prefix + groups.filter(Boolean).join(separator);
}

describe('phoneNormalForm: one person, however the number is written', () => {
	it.each([
		'0712 345 678',
		'+254712345678',
		'254712345678',
		'00254712345678',
		'+254 712-345-678',
		'(0712) 345.678',
		' +254 (712) 345 678 ',
		'tel:+254712345678',
		'254-712-345-678',
	])('%s is +254712345678', (given) => {
		expect(phoneNormalForm(given)).toBe(NORMAL);
	});

	it('every prefix with every separator anywhere between digits is the same number', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...PREFIXES),
				fc.uniqueArray(fc.integer({ min: 1, max: NATIONAL.length - 1 }), { maxLength: 4 }),
				fc.constantFrom(...SEPARATORS),
				fc.constantFrom('', ' ', '\t', '\n'),
				(prefix, cuts, separator, around) => {
					const given =
						around +
						written(
							prefix,
							[...cuts].sort((a, b) => a - b),
							separator,
						) +
						around;
					expect(phoneNormalForm(given)).toBe(NORMAL);
				},
			),
			{ numRuns: 2000 },
		);
	});

	it('a number given as a JavaScript number (a spreadsheet column) is read too', () => {
		expect(phoneNormalForm(254712345678)).toBe(NORMAL);
	});

	it('another country keeps its own code when written with + or 00', () => {
		expect(phoneNormalForm('+1 (415) 555-2671')).toBe('+14155552671');
		expect(phoneNormalForm('0044 20 7946 0958')).toBe('+442079460958');
		expect(phoneNormalForm('+256 772 123456')).toBe('+256772123456');
	});

	it('the default country code is a setting: a national number takes the one given', () => {
		expect(phoneNormalForm('0772 123 456', '256')).toBe('+256772123456');
		expect(phoneNormalForm('256772123456', '256')).toBe('+256772123456');
		// 12 digits that start with another code than the setting's are not read as international
		expect(phoneNormalForm('254712345678', '256')).toBeNull();
	});

	it.each([
		['empty', ''],
		['spaces', '   '],
		['words', 'STOP'],
		['too short with a plus', '+2547123'],
		['too long with a plus', '+2547123456789012'],
		['a national number one digit short', '071234567'],
		['a national number one digit long', '07123456789'],
		['nine digits with no prefix', '712345678'],
		['eleven digits with no plus', '14155552671'],
		['twelve digits with another code and no plus', '447700900123'],
		['letters among too few digits', '0712 ABC 678'],
		['null', null],
		['undefined', undefined],
		['an object', { number: '+254712345678' }],
	])('%s is not a number (null)', (_, given) => {
		expect(phoneNormalForm(given)).toBeNull();
	});

	it('whatever it is given, the result is null or + and 8 to 15 digits', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[+0-9 ().-]{0,22}$/)), (given) => {
				const normal = phoneNormalForm(given);
				if (normal !== null) expect(normal).toMatch(/^\+\d{8,15}$/);
			}),
			{ numRuns: 3000 },
		);
	});
});
