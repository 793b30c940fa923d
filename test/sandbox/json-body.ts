// Reading a JSON request body the strict way: docs/api.md "Hosts, channel and authentication" says
// JSON bodies are sent with content type application/json, so anything else is refused rather than
// guessed at.
import { readBody } from './http-util';
import type { Exchange } from './server';
import type { Checked } from './types';

/** JSON bodies of this API are small; 1 MiB is generous and keeps a runaway client in check. */
const JSON_LIMIT = 1024 * 1024;

export async function readJson(ex: Exchange): Promise<Checked<unknown>> {
	const contentType = ex.req.headers['content-type'] ?? '';
	if (!/^application\/json\s*(;|$)/i.test(contentType)) {
		const got = contentType === '' ? 'no Content-Type header' : `Content-Type '${contentType}'`;
		return {
			ok: false,
			problem: {
				status: 400,
				code: 'bad_request',
				message: `Request body must be JSON sent with Content-Type: application/json (got ${got})`,
			},
		};
	}
	const body = await readBody(ex.req, JSON_LIMIT);
	if (body.kind === 'aborted') {
		return { ok: false, problem: { status: 400, code: 'bad_request', message: 'Request aborted' } };
	}
	if (body.kind === 'too_large') {
		const message = `JSON body exceeds ${JSON_LIMIT} bytes`;
		return { ok: false, problem: { status: 413, code: 'payload_too_large', message } };
	}
	const text = body.data.toString('utf8');
	if (text.trim() === '') {
		const message = 'Request body is empty; send a JSON object';
		return { ok: false, problem: { status: 400, code: 'bad_request', message } };
	}
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (err) {
		const detail = err instanceof Error ? err.message : String(err);
		const message = `Request body is not valid JSON: ${detail}`;
		return { ok: false, problem: { status: 400, code: 'bad_request', message } };
	}
}
