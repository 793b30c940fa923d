/**
 * Whether a post carries the secret the user set, and the body with it removed. How SMSLeopard
 * presents the secret is not documented (docs/api.md "Callbacks"): the plausible ways are accepted
 * (a body field, as `status_secret` is sent; a header; a query parameter of the URL the user gave;
 * an HMAC signature of the body, as Meta signs its webhooks), and a user who knows which one their
 * account uses can pin it. Comparisons take the same time whatever the guess.
 */
import { createHmac, timingSafeEqual } from 'crypto';
import { parseWebhookBody } from './webhook-events';

export type SecretPresentation = 'any' | 'bodyField' | 'header' | 'query' | 'signature';

export interface WebhookRequest {
	body: unknown;
	/** Header names in lower case, as Node gives them. */
	headers: Record<string, string | string[] | undefined>;
	query: Record<string, unknown>;
	/** The bytes as received, for a signature. */
	rawBody?: Buffer;
}

export const SECRET_BODY_FIELDS = [
	'status_secret',
	'statusSecret',
	'secret',
	'webhook_secret',
	'webhookSecret',
	'token',
	'verify_token',
];
export const SECRET_HEADERS = [
	'x-status-secret',
	'x-webhook-secret',
	'x-smsleopard-secret',
	'x-secret',
	'x-webhook-token',
];
const SIGNATURE_HEADERS = ['x-hub-signature-256', 'x-smsleopard-signature', 'x-signature'];
const QUERY_NAMES = ['secret', 'status_secret', 'token'];

function sameText(given: unknown, expected: string): boolean {
	if (typeof given !== 'string' && typeof given !== 'number') return false;
	const a = Buffer.from(String(given));
	const b = Buffer.from(expected);
	// timingSafeEqual needs equal lengths; comparing b with itself keeps the time the same.
	return a.length === b.length ? timingSafeEqual(a, b) : !timingSafeEqual(b, b);
}

function headerValues(request: WebhookRequest, name: string): string[] {
	const value = request.headers[name];
	return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * The secret as a body field: of the body, or, for an array of reports, of every one of them, so
 * that one forged report cannot ride along with a real one.
 */
function viaBody(request: WebhookRequest, secret: string): boolean {
	const parsed = parseWebhookBody(request.body);
	const records = Array.isArray(parsed) ? parsed : [parsed];
	// No count bound: n8n's payload limit (N8N_PAYLOAD_SIZE_MAX) bounds how many records come.
	if (records.length === 0) return false;
	return records.every((record) => {
		if (typeof record !== 'object' || record === null) return false;
		const fields = record as Record<string, unknown>;
		return SECRET_BODY_FIELDS.some((key) => key in fields && sameText(fields[key], secret));
	});
}

function viaHeader(request: WebhookRequest, secret: string): boolean {
	const named = SECRET_HEADERS.flatMap((name) => headerValues(request, name));
	const bearer = headerValues(request, 'authorization')
		.filter((value) => /^bearer\s+/i.test(value))
		.map((value) => value.replace(/^bearer\s+/i, ''));
	return [...named, ...bearer].some((value) => sameText(value.trim(), secret));
}

function viaQuery(request: WebhookRequest, secret: string): boolean {
	return QUERY_NAMES.some((key) => sameText(request.query[key], secret));
}

function viaSignature(request: WebhookRequest, secret: string): boolean {
	if (!request.rawBody) return false;
	const digest = createHmac('sha256', secret).update(request.rawBody).digest('hex');
	return SIGNATURE_HEADERS.flatMap((name) => headerValues(request, name)).some((value) =>
		sameText(
			value
				.trim()
				.replace(/^sha256=/i, '')
				.toLowerCase(),
			digest,
		),
	);
}

const CHECKS: Record<Exclude<SecretPresentation, 'any'>, typeof viaBody> = {
	bodyField: viaBody,
	header: viaHeader,
	query: viaQuery,
	signature: viaSignature,
};

/** One presented value against the secret set; an empty secret setting matches nothing. */
export function matchesSecret(given: unknown, secret: string): boolean {
	return secret !== '' && sameText(given, secret);
}

export function carriesSecret(
	request: WebhookRequest,
	secret: string,
	presentation: SecretPresentation = 'any',
): boolean {
	if (secret === '') return false;
	if (presentation !== 'any') return CHECKS[presentation](request, secret);
	return Object.values(CHECKS).some((check) => check(request, secret));
}

/** Why a post was refused, in words a log can hold: never the secret nor the body. */
export type SecretVerdict = 'accepted' | 'noSecret' | 'wrongSecret' | 'elsewhere';

/**
 * Where the post presents something in a place a secret may come, right or wrong: the names of
 * those places only (never a value), for the refusal's report.
 */
export function presentedPlaces(request: WebhookRequest): string[] {
	const parsed = parseWebhookBody(request.body);
	const records = Array.isArray(parsed) ? parsed : [parsed];
	const fields = SECRET_BODY_FIELDS.filter((key) =>
		records.some(
			(record) =>
				typeof record === 'object' && record !== null && key in (record as Record<string, unknown>),
		),
	);
	const headers = [...SECRET_HEADERS, ...SIGNATURE_HEADERS].filter(
		(name) => headerValues(request, name).length > 0,
	);
	const bearer = headerValues(request, 'authorization').some((value) => /^bearer\s+/i.test(value));
	const query = QUERY_NAMES.filter((key) => request.query[key] !== undefined);
	return [
		...fields.map((key) => `body field ${key}`),
		...headers.map((name) => `header ${name}`),
		...(bearer ? ['header authorization (Bearer)'] : []),
		...query.map((key) => `query parameter ${key}`),
	];
}

/** Where the secret is looked for, in words: every place, or the one pinned. */
export function placesLookedIn(presentation: SecretPresentation): string[] {
	const places: Record<Exclude<SecretPresentation, 'any'>, string> = {
		bodyField: `a body field: ${SECRET_BODY_FIELDS.join(', ')}`,
		header: `a header: ${SECRET_HEADERS.join(', ')} or authorization (Bearer)`,
		query: `a query parameter: ${QUERY_NAMES.join(', ')}`,
		signature: `an HMAC-SHA256 signature of the body: ${SIGNATURE_HEADERS.join(', ')}`,
	};
	return presentation === 'any' ? Object.values(places) : [places[presentation]];
}

/**
 * The verdict on a post: accepted; or refused because it presents no secret at all, a wrong one,
 * or the right one in another place than the one pinned under Secret Presented As.
 */
export function checkSecret(
	request: WebhookRequest,
	secret: string,
	presentation: SecretPresentation = 'any',
): SecretVerdict {
	if (secret !== '' && carriesSecret(request, secret, presentation)) return 'accepted';
	if (secret !== '' && presentation !== 'any' && carriesSecret(request, secret, 'any')) {
		return 'elsewhere';
	}
	return presentedPlaces(request).length > 0 ? 'wrongSecret' : 'noSecret';
}

/**
 * The body as received minus the secret: a field whose value is the secret (its own field, at any
 * depth) is dropped, and the secret's text is blanked inside longer strings. Other fields named
 * `token` or `secret` stay: they are the sender's data. Recursive: callers bound the depth first
 * (webhook-body.ts keeps a deeper body as raw text).
 */
function isTheSecret(value: unknown, secret: string): boolean {
	return secret !== '' && (typeof value === 'string' || typeof value === 'number')
		? String(value) === secret
		: false;
}

export function withoutSecret(body: unknown, secret: string): unknown {
	if (typeof body === 'string') {
		return secret !== '' && body.includes(secret) ? body.split(secret).join('[redacted]') : body;
	}
	if (Array.isArray(body)) {
		return body
			.filter((element) => !isTheSecret(element, secret))
			.map((element) => withoutSecret(element, secret));
	}
	if (typeof body !== 'object' || body === null) return body;
	return Object.fromEntries(
		Object.entries(body as Record<string, unknown>)
			.filter(([, value]) => !isTheSecret(value, secret))
			.map(([key, value]) => [key, withoutSecret(value, secret)]),
	);
}
