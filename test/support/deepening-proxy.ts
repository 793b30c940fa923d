/**
 * A loopback proxy in front of a sandbox host that adds a very deeply nested field to the JSON
 * answers of chosen paths, the way a broken gateway might: the request reaches the sandbox (a send
 * is really accepted), only the answer is made deep. The field goes into every JSON object of the
 * answer that has fields (the answer itself, each record of a list, each recipient of a send).
 */
import http from 'http';
import type net from 'net';

export type DeepShape = 'objects' | 'arrays';

/** `{"a":{"a":...1...}}` or `[[[...1...]]]`, `levels` deep, built as text (stringify would overflow). */
export function deepJson(levels: number, shape: DeepShape): string {
	return shape === 'objects'
		? '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)
		: '['.repeat(levels) + '1' + ']'.repeat(levels);
}

/** The sandbox's answers hold no `{` inside their strings, so an object starts wherever `{"` does. */
function withDeepField(text: string, deep: string): string {
	return text.replace(/\{(?=\s*")/g, () => `{"deep":${deep},`);
}

/** How deep a value nests (iteratively: the point is that the output is shallow). */
export function depthOf(value: unknown): number {
	let deepest = 0;
	const stack: Array<[unknown, number]> = [[value, 0]];
	while (stack.length > 0) {
		const [current, depth] = stack.pop()!;
		deepest = Math.max(deepest, depth);
		if (current && typeof current === 'object') {
			for (const child of Object.values(current)) stack.push([child, depth + 1]);
		}
	}
	return deepest;
}

export interface DeepeningProxy {
	url: string;
	/** Paths whose answer was made deep. */
	deepened: string[];
	close(): Promise<void>;
}

/** `"field":"text"` -> `"field":<deep>`: a deep value where the client expects a string. */
function withDeepValue(text: string, field: string, deep: string): string {
	return text.replace(new RegExp(`"${field}":"[^"]*"`, 'g'), () => `"${field}":${deep}`);
}

export async function startDeepeningProxy(
	target: string,
	options: {
		paths: RegExp;
		levels: number;
		shape: DeepShape;
		/** Put the deep value in place of this string field, instead of adding a field "deep". */
		inPlaceOf?: string;
	},
): Promise<DeepeningProxy> {
	const deep = deepJson(options.levels, options.shape);
	const deepened: string[] = [];
	const server = http.createServer((incoming, outgoing) => {
		const forward = http.request(
			new URL(incoming.url ?? '/', target),
			{ method: incoming.method, headers: { ...incoming.headers, host: new URL(target).host } },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					let body = Buffer.concat(chunks).toString('utf8');
					const path = (incoming.url ?? '').split('?')[0];
					if (options.paths.test(path) && /json/.test(String(answer.headers['content-type']))) {
						body = options.inPlaceOf
							? withDeepValue(body, options.inPlaceOf, deep)
							: withDeepField(body, deep);
						deepened.push(path);
					}
					const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
					delete headers['transfer-encoding'];
					outgoing.writeHead(answer.statusCode ?? 502, headers);
					outgoing.end(body);
				});
			},
		);
		forward.on('error', () => outgoing.destroy());
		incoming.pipe(forward);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		deepened,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
