/**
 * The family of posts an SMSLeopard Trigger may get: every body shape version 1's tests posted
 * (a flat report, an array, the sandbox's wrapped and form reports, Meta's WhatsApp body, a body
 * it does not know) × every place of the secret it looks in × every content type a sender may set
 * (or none). Built from one secret, so the same posts run against version 1 (its Secret field) and
 * version 2 (the credential's Webhook Secret). Shared by test/node/trigger-versions.test.ts (n8n's
 * engine) and test/e2e/trigger-versions.e2e.test.ts (real n8n).
 */
import { createHmac } from 'crypto';
import {
	SECRET_BODY_FIELDS,
	SECRET_HEADERS,
} from '../../nodes/SmsLeopard/client/inbound/webhook-secret';
import { metaPost } from '../client/meta-family';

export interface TriggerPost {
	/** Shape, secret place and content type, for a failing test's message. */
	name: string;
	contentType?: string;
	headers: Record<string, string>;
	query: Record<string, string>;
	raw: string;
}

type Shape = 'flat' | 'array' | 'wrapped' | 'form' | 'meta' | 'unknown';
export const POST_SHAPES: Shape[] = ['flat', 'array', 'wrapped', 'form', 'meta', 'unknown'];

/** Content types as senders set them; undefined is a post with no Content-Type header. */
export const POST_CONTENT_TYPES: Array<string | undefined> = [
	'application/json',
	'application/json; charset=utf-8',
	'text/plain',
	'application/x-www-form-urlencoded',
	'application/octet-stream',
	undefined,
	'application/vnd.smsleopard+json',
	'text/html',
];

/** Where a post carries the secret: a body field, a header, a query parameter, a signature. */
export type SecretPlace =
	| { in: 'body'; name: string }
	| { in: 'header'; name: string }
	| { in: 'bearer' }
	| { in: 'query'; name: string }
	| { in: 'signature'; name: string; prefix: string }
	| { in: 'none' }
	| { in: 'wrong' };

export const SECRET_PLACES: SecretPlace[] = [
	...SECRET_BODY_FIELDS.map((name) => ({ in: 'body' as const, name })),
	...SECRET_HEADERS.map((name) => ({ in: 'header' as const, name })),
	{ in: 'bearer' },
	...['secret', 'status_secret', 'token'].map((name) => ({ in: 'query' as const, name })),
	{ in: 'signature', name: 'x-hub-signature-256', prefix: 'sha256=' },
	{ in: 'signature', name: 'x-smsleopard-signature', prefix: '' },
	{ in: 'signature', name: 'x-signature', prefix: 'sha256=' },
	{ in: 'none' },
	{ in: 'wrong' },
];

function placeName(place: SecretPlace): string {
	return 'name' in place ? `${place.in} ${place.name}` : place.in;
}

function records(shape: Shape, tag: string): Array<Record<string, unknown>> {
	const id = (n: number) => `${shape}-${tag}-${n}`;
	switch (shape) {
		case 'array':
			return [
				{ id: id(1), status: 'DELIVRD' },
				{ id: id(2), status: 'UNDELIV', reason: 'Absent subscriber' },
			];
		case 'wrapped':
			return [
				{
					event: 'delivery_report',
					data: [{ message_id: id(1), delivery_status: 'DELIVRD', msisdn: '+254722000041' }],
				},
			];
		case 'meta':
			return [
				metaPost({
					statuses: [{ id: `wamid.${id(1)}`, status: 'read', recipient_id: '254722000041' }],
				}),
			];
		case 'unknown':
			return [{ hello: id(1) }];
		default:
			return [{ id: id(1), status: 'DELIVRD', number: '+254722000041' }];
	}
}

/** The body text: a secret body field goes into every record (an array's too). */
function bodyText(shape: Shape, tag: string, field: Record<string, string>): string {
	const withField = records(shape, tag).map((record) => ({ ...record, ...field }));
	if (shape === 'form') {
		return new URLSearchParams(
			Object.entries(withField[0]).map(([key, value]): [string, string] => [key, String(value)]),
		).toString();
	}
	return JSON.stringify(shape === 'array' ? withField : withField[0]);
}

export function triggerPost(
	shape: Shape,
	place: SecretPlace,
	contentType: string | undefined,
	secret: string,
): TriggerPost {
	const tag = `${placeName(place).replace(/\W+/g, '_')}-${(contentType ?? 'none').replace(/\W+/g, '_')}`;
	const given = place.in === 'wrong' ? `${secret}-wrong` : secret;
	const raw = bodyText(shape, tag, place.in === 'body' ? { [place.name]: given } : {});
	const headers: Record<string, string> = {};
	const query: Record<string, string> = {};
	if (place.in === 'header') headers[place.name] = given;
	if (place.in === 'bearer') headers.authorization = `Bearer ${given}`;
	if (place.in === 'wrong') headers['x-status-secret'] = given;
	if (place.in === 'query') query[place.name] = given;
	if (place.in === 'signature') {
		headers[place.name] =
			`${place.prefix}${createHmac('sha256', secret).update(raw).digest('hex')}`;
	}
	return {
		name: `${shape} body, secret in ${placeName(place)}, content type ${contentType ?? '(none)'}`,
		...(contentType === undefined ? {} : { contentType }),
		headers,
		query,
		raw,
	};
}

/** The whole family: 6 shapes × 20 places × 8 content types. */
export function triggerPostFamily(secret: string): TriggerPost[] {
	return POST_SHAPES.flatMap((shape) =>
		SECRET_PLACES.flatMap((place) =>
			POST_CONTENT_TYPES.map((type) => triggerPost(shape, place, type, secret)),
		),
	);
}
