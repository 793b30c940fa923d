/**
 * One normal form for a phone number, so `0712 345 678`, `254712345678` and `+254 712-345-678` are
 * one person on the opt-out list: `+` and 8 to 15 digits, or null for anything that is not a number.
 * The rules are the opt-out list's contract (docs/opt-outs.md); campaign workflows apply the same.
 */

/** Kenya: the country of a national number (0 and 9 digits) when no other is set. */
export const DEFAULT_COUNTRY_CODE = '254';

const NORMAL_FORM = /^\+\d{8,15}$/;

export function phoneNormalForm(
	value: unknown,
	countryCode: string = DEFAULT_COUNTRY_CODE,
): string | null {
	if (typeof value !== 'string' && typeof value !== 'number') return null;
	const given = String(value);
	const firstSign = given.search(/[+\d]/);
	// Only a plus before the first digit counts ("+254 ..."); any other sign is stripped like a space.
	const plus = firstSign >= 0 && given[firstSign] === '+';
	let digits = given.replace(/\D/g, '');
	const code = countryCode.replace(/\D/g, '');
	if (!plus) {
		if (digits.startsWith('00')) digits = digits.slice(2);
		else if (/^0\d{9}$/.test(digits) && code !== '') digits = code + digits.slice(1);
		else if (!(digits.length === 12 && code !== '' && digits.startsWith(code))) return null;
	}
	const normal = `+${digits}`;
	return NORMAL_FORM.test(normal) ? normal : null;
}
