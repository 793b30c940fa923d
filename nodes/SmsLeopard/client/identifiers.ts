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

/** A positive whole number given as a number or as digits (what n8n expressions often produce). */
export function recordId(what: string) {
	return z.preprocess(
		(value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
		z
			.number({
				required_error: 'is required',
				invalid_type_error: `must be ${what} (a whole number)`,
			})
			.int(`must be ${what} (a whole number)`)
			.positive(`must be ${what} (1 or more)`),
	);
}

/** C0 control characters (U+0000 to U+001F) and DEL, by code: a regex of them is a lint error. */
function hasControlCharacter(value: string): boolean {
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
