/**
 * The `body` kept beside every event: the post as received minus the secret (webhook-secret.ts),
 * whole at any depth a real post reaches. A hostile post nested deeper than n8n can safely copy and
 * store (its engine copies and saves execution data recursively) is kept as its raw text instead,
 * so the post is neither lost nor able to crash the execution.
 */
import { withoutSecret } from './webhook-secret';

/**
 * Deeper than any provider's post (Meta's WhatsApp messages sit at depth 7) and well within what
 * n8n's recursive copies survive; the e2e suite stores a post this deep in every n8n it tests.
 */
export const MAX_KEPT_DEPTH = 1_000;

export interface KeptBody {
	body: unknown;
	/** Set when the body is kept as raw text: why. */
	bodyNote?: string;
}

/** Whether `value` nests deeper than `limit`, found without recursion (a hostile depth is cheap). */
export function deeperThan(value: unknown, limit: number): boolean {
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop() as [unknown, number];
		if (typeof current !== 'object' || current === null) continue;
		if (depth >= limit) return true;
		for (const child of Object.values(current as Record<string, unknown>)) {
			if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
		}
	}
	return false;
}

function blanked(text: string, secret: string): string {
	if (secret === '') return text;
	// A form-encoded post carries the secret URL-encoded.
	return [secret, encodeURIComponent(secret)].reduce(
		(result, form) => (result.includes(form) ? result.split(form).join('[redacted]') : result),
		text,
	);
}

/** The body to output for a post: parsed and without the secret, or its raw text when too deep. */
export function keptBody(parsed: unknown, secret: string, rawBody?: Buffer | string): KeptBody {
	if (!deeperThan(parsed, MAX_KEPT_DEPTH)) return { body: withoutSecret(parsed, secret) };
	return {
		body: blanked(rawBody === undefined ? '' : rawBody.toString(), secret),
		bodyNote: `The post nests deeper than ${MAX_KEPT_DEPTH} levels: kept as its raw text (minus the secret), not as fields.`,
	};
}
