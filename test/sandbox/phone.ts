// Phone number rules shared by send (destination) and contact create (phone_number).
// docs/api.md "Phone numbers": international with or without '+', or local. Local means Kenyan here
// (the provider is Kenyan): 07XXXXXXXX / 01XXXXXXXX. Separators (spaces, dashes) are refused rather
// than silently stripped, so a client that forgets to normalise user input finds out in the
// sandbox.

export const PHONE_FORMAT_HINT =
	'use international format with or without a leading plus (+254712345678 or 254712345678) or Kenyan local format (0712345678), digits only';

/** International form with a leading plus, or null when the input is not a valid number. */
export function normalizePhone(input: string): string | null {
	if (/^0[17]\d{8}$/.test(input)) return `+254${input.slice(1)}`;
	const match = /^\+?([1-9]\d{7,14})$/.exec(input);
	if (!match) return null;
	const digits = match[1];
	// Kenyan numbers have a fixed length; a wrong one is a typo, not another country.
	if (digits.startsWith('254') && digits.length !== 12) return null;
	return `+${digits}`;
}
