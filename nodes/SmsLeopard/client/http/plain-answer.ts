/**
 * Reading the usual answer of a hot path without zod. A send's answer is read once per send, and
 * zod's parse around it cost more than the reading itself (about a quarter of the node's own CPU
 * per template send, profiled in a real n8n). A plain reader gives exactly what the call's schema
 * gives for the answers it takes, and takes only plain records; anything else it leaves to the
 * schema, which says what is wrong. test/client/plain-answers.test.ts holds each reader to its
 * schema.
 */

/**
 * A record as JSON.parse makes it (or an object literal: the input readers in messages.ts and
 * components.ts take it too). zod reads other objects differently (inherited fields) and drops a
 * field named `__proto__`: both are left to zod.
 */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
	return (
		typeof value === 'object' &&
		value !== null &&
		!Array.isArray(value) &&
		Object.getPrototypeOf(value) === Object.prototype &&
		!Object.prototype.hasOwnProperty.call(value, '__proto__')
	);
}

/**
 * `into` with `value`'s fields other than `known` added after it, in their order, as a zod object
 * with `.passthrough()` keeps them: after the schema's own fields, and without those that hold
 * `undefined`.
 */
export function withOtherFields(
	into: Record<string, unknown>,
	value: Record<string, unknown>,
	known: readonly string[],
): Record<string, unknown> {
	for (const key of Object.keys(value)) {
		if (!known.includes(key) && value[key] !== undefined) into[key] = value[key];
	}
	return into;
}
