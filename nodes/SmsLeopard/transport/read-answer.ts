/**
 * Reads an answer's body whole, within the deadline and at most MAX_ANSWER_BYTES, for the node's
 * transport and the credential Test alike. JSON is parsed as axios would have done (JSON.parse takes
 * any depth; the client bounds the depth of what it keeps).
 */
import { timedOut } from './deadline';
import { readFailure } from './request-failure';

/** Largest answer read: no SMSLeopard answer comes near it, and a hostile one cannot fill memory. */
export const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

export type ReadAnswer = { body: unknown } | { failure: string };

type BodyStream = AsyncIterable<Buffer | string> & { destroy(error?: Error): void };

export function isStream(body: unknown): body is BodyStream {
	return (
		!!body &&
		typeof body === 'object' &&
		Symbol.asyncIterator in body &&
		typeof (body as { destroy?: unknown }).destroy === 'function'
	);
}

/** Frees an answer nobody will read (a stream left open holds its socket). */
export function discardBody(body: unknown): void {
	if (isStream(body)) body.destroy();
}

/** The code of a failed read: a system code when the error has one, else a reset. */
function readFailureCode(error: unknown): string {
	const { code } = readFailure(error);
	return code === 'ECONNECTION' ? 'ECONNRESET' : code;
}

/**
 * The body as text or parsed JSON, or the failure that ended it: ETOOLARGE past the size cap,
 * ETIMEDOUT at the deadline (the stream is destroyed then, whether or not bytes still come).
 */
export async function readAnswer(
	body: unknown,
	headers: Record<string, string | undefined>,
	deadline: AbortSignal,
): Promise<ReadAnswer> {
	if (!isStream(body)) {
		return { body: Buffer.isBuffer(body) ? body.toString('utf8') : body };
	}
	if (Number(headers['content-length']) > MAX_ANSWER_BYTES) {
		body.destroy();
		return { failure: 'ETOOLARGE' };
	}
	const stop = () => body.destroy(timedOut());
	if (deadline.aborted) stop();
	else deadline.addEventListener('abort', stop, { once: true });
	const chunks: Buffer[] = [];
	let size = 0;
	try {
		for await (const chunk of body) {
			const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			size += bytes.length;
			if (size > MAX_ANSWER_BYTES) {
				body.destroy();
				return { failure: 'ETOOLARGE' };
			}
			chunks.push(bytes);
		}
	} catch (error) {
		return { failure: deadline.aborted ? 'ETIMEDOUT' : readFailureCode(error) };
	} finally {
		deadline.removeEventListener('abort', stop);
	}
	// The last chunk may have come just as the deadline passed: the answer is whole, keep it.
	const text = Buffer.concat(chunks).toString('utf8');
	if (text.trim() === '') return { body: text };
	try {
		return { body: JSON.parse(text) as unknown };
	} catch {
		return { body: text };
	}
}
