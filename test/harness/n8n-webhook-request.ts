/**
 * A post as n8n hands it to a webhook node of a given version: n8n 2.8.4's parseRequestBody
 * (dist/webhooks/webhook-helpers.js) and parseBody (dist/middlewares/body-parser.js), restated.
 * Version 1 nodes get every body read (rawBody) and parsed when JSON, form, text or XML; later
 * versions only for those content types: any other body stays unread, with `readRawBody` left on
 * the request. The e2e suite (test/e2e/trigger-versions.e2e.test.ts) posts the same family to
 * real n8n, so this restatement cannot drift unnoticed. XML is parsed by n8n's xml2js, which this
 * harness does not have: XML posts are left to the e2e suite.
 */
import { parse } from 'querystring';

export interface RawPost {
	/** The Content-Type header as sent, parameters included; undefined: none. */
	contentType?: string;
	headers?: Record<string, string>;
	query?: Record<string, unknown>;
	raw: string;
}

export interface N8nWebhookRequest {
	body: unknown;
	headers: Record<string, string>;
	query: Record<string, unknown>;
	rawBody?: Buffer;
	readRawBody: () => Promise<void>;
}

/** n8n's `req.contentType`: the media type without parameters (parseIncomingMessage). */
function mediaType(contentType: string | undefined): string | undefined {
	return contentType?.split(';')[0].trim().toLowerCase() || undefined;
}

const readByLaterVersions = (type: string | undefined) =>
	type !== undefined &&
	(type.startsWith('application/json') ||
		type.startsWith('text/plain') ||
		type.startsWith('application/x-www-form-urlencoded') ||
		type.endsWith('/xml') ||
		type.endsWith('+xml'));

/** n8n's own answer before any node runs (a JSON body that does not parse: 422). */
export class N8nRefusal extends Error {
	constructor(
		readonly status: number,
		message: string,
	) {
		super(message);
	}
}

export function n8nWebhookRequest(typeVersion: number, post: RawPost): N8nWebhookRequest {
	const headers: Record<string, string> = { ...post.headers };
	if (post.contentType !== undefined) headers['content-type'] = post.contentType;
	const request: N8nWebhookRequest = {
		// Unset until parsed, as on n8n's webhook routes (no body-parser runs before the node).
		body: undefined,
		headers,
		query: post.query ?? {},
		readRawBody: async () => {
			request.rawBody ??= Buffer.from(post.raw);
		},
	};
	const type = mediaType(post.contentType);
	if (typeVersion > 1 && !readByLaterVersions(type)) return request;
	// parseBody: read, then parse by the exact media type; a parse error is n8n's 422, never the node's.
	request.rawBody = Buffer.from(post.raw);
	if (post.raw.length === 0) return request;
	if (type === 'application/json') {
		try {
			request.body = JSON.parse(post.raw) as unknown;
		} catch {
			throw new N8nRefusal(422, 'Failed to parse request body');
		}
	} else if (type === 'application/x-www-form-urlencoded') {
		request.body = { ...parse(post.raw, undefined, undefined, { maxKeys: 1000 }) };
	} else if (type === 'text/plain') request.body = post.raw;
	return request;
}
