// Basic authentication (docs/api.md "Hosts, channel and authentication"). The received credentials
// are compared in constant time and never copied anywhere: callers only learn ok / why-not.
import { createHash, timingSafeEqual } from 'node:crypto';

export type AuthOutcome = 'ok' | 'missing' | 'malformed' | 'invalid';

function digest(value: string): Buffer {
	// Hashing first makes both sides the same length, so the comparison leaks nothing about length.
	return createHash('sha256').update(value, 'utf8').digest();
}

export function checkBasicAuth(
	header: string | undefined,
	apiKey: string,
	apiSecret: string,
): AuthOutcome {
	if (header === undefined || header.trim() === '') return 'missing';
	const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
	if (!match) return 'malformed';
	const decoded = Buffer.from(match[1], 'base64').toString('utf8');
	const colon = decoded.indexOf(':');
	if (colon < 0) return 'malformed';
	const keyOk = timingSafeEqual(digest(decoded.slice(0, colon)), digest(apiKey));
	const secretOk = timingSafeEqual(digest(decoded.slice(colon + 1)), digest(apiSecret));
	return keyOk && secretOk ? 'ok' : 'invalid';
}

/** Chat-family messages: precise about what is wrong, silent about what was received. */
export function authFailureMessage(outcome: Exclude<AuthOutcome, 'ok'>): string {
	switch (outcome) {
		case 'missing':
			return 'Missing Authorization header: send "Authorization: Basic base64(api_key:api_secret)"';
		case 'malformed':
			return 'Malformed Authorization header: expected "Basic " followed by base64(api_key:api_secret)';
		case 'invalid':
			return 'Invalid API credentials: the API key or secret is wrong';
	}
}
