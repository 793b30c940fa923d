/** Shared fast-check generators and an outcome helper for the property tests. */
import fc from 'fast-check';
import { SmsLeopardValidationError } from '../../nodes/SmsLeopard/client';

/** Anything at all, weird objects included (null prototypes, boxed values, sparse arrays, ...). */
export const junk: fc.Arbitrary<unknown> = fc.anything({
	maxDepth: 3,
	maxKeys: 4,
	withBigInt: true,
	withBoxedValues: true,
	withDate: true,
	withMap: true,
	withSet: true,
	withNullPrototype: true,
	withObjectString: true,
	withSparseArray: true,
	withTypedArray: true,
	withUnicodeString: true,
});

/** Line breaks and header-looking text, the ingredients of an injection. */
export const INJECTIONS = [
	'\r\nX-Injected: 1',
	'\nX-Injected: 1',
	'\rX-Injected: 1',
	'\r\n\r\nX-Injected: 1',
	'\r\nX-Injected: 1\r\n\r\n',
	'"\r\nX-Injected: 1\r\n"',
	'%0d%0aX-Injected: 1',
	'\u2028X-Injected: 1',
	'\u0085X-Injected: 1',
	'\0X-Injected: 1',
] as const;

/** Strings of every sort, often carrying an injection attempt somewhere. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
	fc.string({ unit: 'binary', maxLength: 30 }),
	fc.string({ unit: 'grapheme', maxLength: 20 }),
	fc
		.tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...INJECTIONS), fc.string({ maxLength: 8 }))
		.map(([before, injection, after]) => before + injection + after),
);

/** Numbers at the edges: huge, unsafe, fractional, negative, not finite. */
export const edgeNumber: fc.Arbitrary<number> = fc.oneof(
	fc.integer({ min: -3, max: 12 }),
	fc.integer(),
	fc.double(),
	fc.constantFrom(
		0,
		-0,
		1.5,
		2 ** 31,
		2 ** 53 - 1,
		2 ** 53,
		2 ** 53 + 2,
		1e21,
		1e300,
		Number.MAX_VALUE,
		Number.NaN,
		Number.POSITIVE_INFINITY,
		Number.NEGATIVE_INFINITY,
	),
);

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: SmsLeopardValidationError };

/**
 * Runs `run`; a SmsLeopardValidationError is an expected outcome, anything else thrown (a
 * TypeError, a RangeError, a plain Error) escapes and fails the property.
 */
export function outcome<T>(run: () => T): Outcome<T> {
	try {
		return { ok: true, value: run() };
	} catch (error) {
		if (error instanceof SmsLeopardValidationError) return { ok: false, error };
		throw error;
	}
}

export const CRLF = /[\r\n]/;
