/**
 * A posted record's fields looked up by name the way gateways spell them: without case, `_` or `-`
 * (`message_id`, `messageId` and `MessageId` are one name), the first of a list of names that reads.
 */
type Fields = Record<string, unknown>;

/** The record's fields by their compared name (lower case, no `_` or `-`); the first spelling wins. */
export function byName(fields: Fields): Map<string, unknown> {
	const named = new Map<string, unknown>();
	for (const [key, value] of Object.entries(fields)) {
		const name = key.toLowerCase().replace(/[_-]/g, '');
		if (!named.has(name)) named.set(name, value);
	}
	return named;
}

/** The first of `names` whose value `read` makes something of. */
export function first<T>(
	named: Map<string, unknown>,
	names: string[],
	read: (raw: unknown) => T | undefined,
) {
	for (const name of names) {
		if (!named.has(name)) continue;
		const value = read(named.get(name));
		if (value !== undefined) return value;
	}
	return undefined;
}
