/** Shapes of the identifiers callers pass; strict, so no value can carry spaces or line breaks. */
import { z } from 'zod';

const IDENTIFIER = /^[A-Za-z0-9_.:-]+$/;

export function identifier(what: string) {
	return z
		.string({ required_error: 'is required', invalid_type_error: `must be ${what} as text` })
		.trim()
		.min(1, 'is required')
		.regex(IDENTIFIER, `must be ${what}: letters, digits, and . _ : - only`);
}

/** What `identifier(...)` makes of a value it takes, without zod; undefined for anything else. */
export function plainIdentifier(value: unknown): string | undefined {
	if (typeof value !== 'string') return undefined;
	const trimmed = value.trim();
	return IDENTIFIER.test(trimmed) ? trimmed : undefined;
}

const DIGITS = /^\s*\d+\s*$/;

/**
 * A positive whole number given as a number or as digits (what n8n expressions often produce), for
 * ids that travel as JSON numbers. Beyond 2^53 a number has already lost digits, so it is refused
 * rather than silently sent as a neighbour's id.
 */
export function recordId(what: string) {
	return z.preprocess(
		(value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
		z
			.number({
				required_error: 'is required',
				invalid_type_error: `must be ${what} (a whole number)`,
			})
			.int(`must be ${what} (a whole number)`)
			.positive(`must be ${what} (1 or more)`)
			.refine(Number.isSafeInteger, `must be ${what} of at most 15 digits`),
	);
}

/**
 * An id that travels in a URL path, kept as the string of digits it was given, end to end: a
 * JavaScript number would turn 9007199254740993 into ...992 and address another record. A number is
 * accepted only while it is still exact (a safe integer).
 */
export function pathId(what: string) {
	const digits = `must be ${what}: digits only, such as 42`;
	return z.preprocess(
		(value) => {
			if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
			return typeof value === 'string' ? value.trim() : value;
		},
		z
			.string({
				required_error: 'is required',
				invalid_type_error: `${digits} (a number beyond 9007199254740991 has lost digits: pass it as text)`,
			})
			.min(1, 'is required')
			.regex(/^\d+$/, digits)
			.regex(/^0*[1-9]/, `must be ${what} (1 or more)`)
			.transform((value) => value.replace(/^0+/, '')),
	);
}

/** C0 control characters (U+0000 to U+001F) and DEL, by code: a regex of them is a lint error. */
export function hasControlCharacter(value: string): boolean {
	for (let index = 0; index < value.length; index++) {
		const code = value.charCodeAt(index);
		if (code < 0x20 || code === 0x7f) return true;
	}
	return false;
}

/** Free text that ends up in a JSON body or a multipart header: no control characters. */
export function plainText(what: string) {
	return z
		.string({ invalid_type_error: `must be ${what} as text` })
		.refine((value) => !hasControlCharacter(value), {
			message: `must be ${what} on one line, without control characters`,
		});
}
