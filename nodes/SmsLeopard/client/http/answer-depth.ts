/**
 * Bounds how deep an answer nests, as it enters the client. JSON.parse reads any depth, but most of
 * what handles an answer afterwards walks it recursively (zod, JSON.stringify, the node's redaction,
 * n8n's copies of output items) and a gateway answering 100,000 levels of `{"a":{"a":...}}` would
 * end the run with "Maximum call stack size exceeded" after the service accepted every send. No
 * SMSLeopard answer nests more than a few levels: a deeper part is replaced by a short marker and
 * the rest of the answer is kept. The walk is iterative, so the bound itself cannot overflow.
 */
export const MAX_ANSWER_DEPTH = 64;

export const TOO_DEEP = `[left out: nested deeper than ${MAX_ANSWER_DEPTH} levels]`;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container =>
	value !== null && typeof value === 'object';

/**
 * `value` with every object or array below `maxDepth` levels replaced by TOO_DEEP. Changes the
 * answer in place (it is freshly parsed and nobody else holds it) and returns it.
 */
export function limitDepth<T>(value: T, maxDepth = MAX_ANSWER_DEPTH): T {
	if (!isContainer(value)) return value;
	const pending: Array<[Container, number]> = [[value, 1]];
	for (let next = pending.pop(); next; next = pending.pop()) {
		const [container, depth] = next;
		const keys = Array.isArray(container) ? container.keys() : Object.keys(container);
		for (const key of keys) {
			const child = (container as Record<string | number, unknown>)[key];
			if (!isContainer(child)) continue;
			if (depth >= maxDepth) (container as Record<string | number, unknown>)[key] = TOO_DEEP;
			else pending.push([child, depth + 1]);
		}
	}
	return value;
}
