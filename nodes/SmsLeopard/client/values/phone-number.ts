/**
 * Phone numbers as the service takes them (docs/api.md "Phone numbers"): international with or
 * without a leading plus, or local format. Separators people paste (spaces, dashes, dots, brackets)
 * are removed; anything else that is not a digit is refused, so no value can smuggle text into a
 * request.
 */
import { z } from 'zod';

const SEPARATORS = /[\s\-.()]/g;
/** A phone number once cleaned: the only shape phoneNumberSchema accepts. */
export const PHONE_NUMBER = /^\+?\d{6,15}$/;

export function cleanPhoneNumber(value: string): string {
	return value.trim().replace(SEPARATORS, '');
}

export const phoneNumberSchema = z
	.string({ invalid_type_error: 'must be a phone number as text' })
	.trim()
	.min(1, 'is required')
	.transform(cleanPhoneNumber)
	.refine((value) => PHONE_NUMBER.test(value), {
		message:
			'is not a valid phone number: use international format (+254712345678 or 254712345678) or local format (0712345678), digits only',
	});

/** What phoneNumberSchema makes of a value it takes, without zod; undefined for anything else. */
export function plainPhoneNumber(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const cleaned = cleanPhoneNumber(value);
	return PHONE_NUMBER.test(cleaned) ? cleaned : undefined;
}
