// Small node:http helpers: waiting, reading a bounded body, writing JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const sleep = (ms: number): Promise<void> =>
	new Promise((resolve) => setTimeout(resolve, ms));

export function writeJson(
	res: ServerResponse,
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): void {
	// The client may have gone (or stop() destroyed the socket during the latency wait).
	if (res.writableEnded || res.destroyed) return;
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
		...headers,
	});
	res.end(text);
}

/** Writes a body as given, for the fault knobs that answer something other than proper JSON. */
export function writeRaw(
	res: ServerResponse,
	status: number,
	contentType: string,
	data: Buffer,
	headers: Record<string, string> = {},
): void {
	if (res.writableEnded || res.destroyed) return;
	res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': data.length, ...headers });
	res.end(data);
}

/**
 * The first half of the JSON text of `body`, as bytes. A proper prefix of a JSON object or array
 * is never valid JSON; the bodies answered here are always objects or arrays.
 */
export function truncatedJson(body: unknown): Buffer {
	const full = Buffer.from(JSON.stringify(body) ?? 'null');
	return full.subarray(0, Math.max(1, Math.floor(full.length / 2)));
}

export type BodyRead = { kind: 'ok'; data: Buffer } | { kind: 'too_large' } | { kind: 'aborted' };

/**
 * Reads the body up to `limit` bytes. Past the limit it keeps draining (discarding) so the answer
 * can still be read by a client that insists on sending everything first.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) tooLarge = true;
			if (!tooLarge) chunks.push(chunk);
		});
		req.on('end', () =>
			resolve(tooLarge ? { kind: 'too_large' } : { kind: 'ok', data: Buffer.concat(chunks) }),
		);
		req.on('error', () => resolve({ kind: 'aborted' }));
		req.on('aborted', () => resolve({ kind: 'aborted' }));
	});
}

export function flattenHeaders(req: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return headers;
}

export function typeName(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	return typeof value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
