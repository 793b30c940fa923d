/**
 * Keeps the credential out of everything the node emits. A server or proxy may echo the request's
 * Authorization header (or the key and secret decoded from it) in an error body; whatever comes
 * back, the API key, the API secret and the Basic token built from them are replaced before an
 * error is thrown or an item is output. The same holds for secrets the workflow puts in a request
 * body, such as Send SMS's Delivery Report Secret (`status_secret`), which a gateway echoing the
 * request would otherwise show in item errors and the run error.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

export const REDACTED = '[redacted]';

/** Shorter values are not replaced: they would mangle ordinary text and cannot be real secrets. */
const MIN_SECRET_LENGTH = 4;

export function credentialSecrets(
	credentials: ICredentialDataDecryptedObject,
	bodySecrets: Iterable<string> = [],
): string[] {
	const key = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	const secret = typeof credentials.apiSecret === 'string' ? credentials.apiSecret : '';
	// Send SMS sends it as the Delivery Report Secret when the item's own is empty.
	const webhookSecret =
		typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret : '';
	const token = Buffer.from(`${key}:${secret}`).toString('base64');
	const written = (value: string) => [
		value,
		encodeURIComponent(value),
		// As it appears inside a JSON string of an echoed body: quotes and backslashes escaped.
		JSON.stringify(value).slice(1, -1),
	];
	// Longest first, so a secret that contains the key is replaced whole.
	return [
		...new Set([
			token,
			...written(key),
			...written(secret),
			...written(webhookSecret),
			...[...bodySecrets].flatMap(written),
		]),
	]
		.filter((value) => value.length >= MIN_SECRET_LENGTH)
		.sort((a, b) => b.length - a.length);
}

export function redactText(text: string, secrets: string[]): string {
	// Every output string passes here (10,000 SMS: some 100,000): a look, and a copy only on a find.
	let result = text;
	for (const secret of secrets) {
		if (result.includes(secret)) result = result.split(secret).join(REDACTED);
	}
	return result;
}

/** A copy of `value` with every string in it (keys too) redacted; cycles are cut. */
export function redactDeep<T>(value: T, secrets: string[], seen = new WeakSet<object>()): T {
	if (typeof value === 'string') return redactText(value, secrets) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	if (seen.has(value)) return undefined as T;
	seen.add(value);
	if (Array.isArray(value)) return value.map((entry) => redactDeep(entry, secrets, seen)) as T;
	const copy: Record<string, unknown> = {};
	// An error's message and stack are not enumerable: copy them explicitly.
	if (value instanceof Error) {
		copy.name = value.name;
		copy.message = redactText(value.message, secrets);
		if (value.stack) copy.stack = redactText(value.stack, secrets);
	}
	for (const [name, entry] of Object.entries(value)) {
		const redacted = redactDeep(entry, secrets, seen);
		// An answer's own "__proto__" field (JSON.parse makes one) would set the copy's prototype.
		if (name === '__proto__') {
			Object.defineProperty(copy, name, {
				value: redacted,
				enumerable: true,
				writable: true,
				configurable: true,
			});
		} else copy[redactText(name, secrets)] = redacted;
	}
	return copy as T;
}

/**
 * `value` itself when none of its strings (keys too) holds a secret, else a redacted copy. Every
 * output item passes here and almost none holds a secret: looking costs a tenth of copying (10,000
 * SMS items: 1.5 ms against 9 to 17 ms for redactDeep). Whatever the look cannot vouch for (errors,
 * whose message is not enumerable, and nesting deeper than any answer, cycles included) is copied.
 */
export function redactOutput<T>(value: T, secrets: string[]): T {
	let shortest = Number.POSITIVE_INFINITY;
	for (const secret of secrets) shortest = Math.min(shortest, secret.length);
	return mayHoldSecret(value, secrets, shortest, 0) ? redactDeep(value, secrets) : value;
}

/** Deeper than this, a value is copied rather than looked through. */
const MAX_LOOK_DEPTH = 64;

function mayHoldSecret(
	value: unknown,
	secrets: string[],
	shortest: number,
	depth: number,
): boolean {
	if (typeof value === 'string') {
		if (value.length < shortest) return false;
		for (const secret of secrets) if (value.includes(secret)) return true;
		return false;
	}
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
	if (depth >= MAX_LOOK_DEPTH || value instanceof Error) return true;
	if (Array.isArray(value)) {
		for (const entry of value) if (mayHoldSecret(entry, secrets, shortest, depth + 1)) return true;
		return false;
	}
	// Inherited enumerable fields too: a copy drops them, so one holding a secret is not kept.
	for (const name in value) {
		if (mayHoldSecret(name, secrets, shortest, depth + 1)) return true;
		const entry = (value as Record<string, unknown>)[name];
		if (mayHoldSecret(entry, secrets, shortest, depth + 1)) return true;
	}
	return false;
}

/**
 * Redacts an error in place (n8n records its own fields, message and stack with the execution) and
 * returns it.
 */
export function redactError<E extends Error>(error: E, secrets: string[]): E {
	const fields = error as unknown as Record<string, unknown>;
	// All fields, the node the error names too: its parameters never hold the credential, but may
	// hold a typed Delivery Report Secret. redactDeep copies, so the workflow's node is untouched.
	for (const name of Object.keys(fields)) fields[name] = redactDeep(fields[name], secrets);
	error.message = redactText(error.message, secrets);
	if (error.stack) error.stack = redactText(error.stack, secrets);
	return error;
}
