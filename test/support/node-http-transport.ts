/**
 * The plain-Node transport: for scripts, the sandbox tests and the benchmarks, where there is no n8n.
 * It adds HTTP Basic authentication itself (inside n8n the credential system does). It lives outside
 * nodes/ and is not part of the built package: n8n's community-node rules keep `http` and timers out
 * of node code.
 */
import http from 'http';
import https from 'https';
import { setTimeout as wait } from 'timers/promises';
import {
	SmsLeopardClient,
	type SmsLeopardClientOptions,
	type Transport,
	type TransportRequest,
	type TransportResponse,
	encodeMultipart,
} from '../../nodes/SmsLeopard/client';

export interface NodeHttpTransportOptions {
	apiKey: string;
	apiSecret: string;
	/** Sockets kept per host; bounds concurrency at the socket level. */
	maxSockets?: number;
	/** Largest response body read, so a misbehaving server cannot exhaust memory. */
	maxResponseBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_TIMER_MS = 2_147_483_647;

export class NodeHttpTransport implements Transport {
	private readonly authorization: string;
	private readonly httpAgent: http.Agent;
	private readonly httpsAgent: https.Agent;
	private readonly maxResponseBytes: number;

	constructor(options: NodeHttpTransportOptions) {
		this.authorization =
			'Basic ' + Buffer.from(`${options.apiKey}:${options.apiSecret}`).toString('base64');
		const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64 };
		this.httpAgent = new http.Agent(agentOptions);
		this.httpsAgent = new https.Agent(agentOptions);
		this.maxResponseBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
	}

	/** Closes idle keep-alive sockets so a script can exit. */
	close(): void {
		this.httpAgent.destroy();
		this.httpsAgent.destroy();
	}

	async request(request: TransportRequest): Promise<TransportResponse> {
		const url = new URL(request.url);
		for (const [name, value] of Object.entries(request.query ?? {})) {
			url.searchParams.set(name, String(value));
		}
		const headers: Record<string, string> = {
			accept: 'application/json',
			authorization: this.authorization,
		};
		let multipart: Awaited<ReturnType<typeof encodeMultipart>> | undefined;
		let json: Buffer | undefined;
		if (request.body?.type === 'json') {
			json = Buffer.from(JSON.stringify(request.body.data));
			headers['content-type'] = 'application/json';
			headers['content-length'] = String(json.length);
		} else if (request.body?.type === 'multipart') {
			multipart = await encodeMultipart(request.body.fields, request.body.file);
			Object.assign(headers, multipart.headers);
		}
		const isHttps = url.protocol === 'https:';
		const module = isHttps ? https : http;
		return await new Promise<TransportResponse>((resolve) => {
			let connected = false;
			let settled = false;
			// The timeout covers the whole answer: the socket's idle timeout alone lets a body that
			// drips a byte at a time run on for ever.
			// (A timer holds at most 2^31 - 1 ms; a longer one would fire at once.)
			const deadline = setTimeout(
				() => outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
				Math.min(request.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS),
			);
			const fail = (error: Error & { code?: string }) => {
				clearTimeout(deadline);
				if (settled) return;
				settled = true;
				const code = error.code ?? 'ECONNECTION';
				resolve({
					status: 0,
					headers: {},
					body: undefined,
					failure: {
						code,
						requestSent: connected,
						message: `Could not reach ${url.origin} (${code}${connected ? ', after the request was sent' : ''})`,
					},
				});
			};
			const outgoing = module.request(
				url,
				{
					method: request.method,
					headers,
					agent: isHttps ? this.httpsAgent : this.httpAgent,
					timeout: Math.min(request.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS),
				},
				(incoming) => {
					const chunks: Buffer[] = [];
					let size = 0;
					incoming.on('data', (chunk: Buffer) => {
						size += chunk.length;
						if (size > this.maxResponseBytes) {
							incoming.destroy(
								Object.assign(new Error('response too large'), { code: 'ETOOLARGE' }),
							);
							return;
						}
						chunks.push(chunk);
					});
					incoming.on('error', fail);
					incoming.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						const contentType = String(incoming.headers['content-type'] ?? '');
						let body: unknown = text;
						if (contentType.includes('json') && text.trim() !== '') {
							try {
								body = JSON.parse(text);
							} catch {
								body = text;
							}
						}
						const responseHeaders: Record<string, string | undefined> = {};
						for (const [name, value] of Object.entries(incoming.headers)) {
							responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
						}
						clearTimeout(deadline);
						if (settled) return;
						settled = true;
						resolve({ status: incoming.statusCode ?? 0, headers: responseHeaders, body });
					});
				},
			);
			outgoing.on('socket', (socket) => {
				// A reused keep-alive socket is connected (and past its handshake). Over TLS the request is written
				// only once the handshake is done: a failure before it never reached the server.
				if (outgoing.reusedSocket || (!isHttps && !socket.connecting)) connected = true;
				else socket.once(isHttps ? 'secureConnect' : 'connect', () => (connected = true));
			});
			outgoing.on('timeout', () =>
				outgoing.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
			);
			outgoing.on('error', fail);
			if (multipart) {
				multipart.form.on('error', (error: Error) => outgoing.destroy(error));
				multipart.form.pipe(outgoing);
			} else {
				outgoing.end(json);
			}
		});
	}
}

export interface NodeClientOptions
	extends NodeHttpTransportOptions, Omit<SmsLeopardClientOptions, 'transport' | 'sleep'> {}

/** A ready client over the plain-Node transport, for scripts and tests. */
export function createNodeClient(options: NodeClientOptions): {
	client: SmsLeopardClient;
	transport: NodeHttpTransport;
} {
	const { apiKey, apiSecret, maxSockets, maxResponseBytes, ...clientOptions } = options;
	const transport = new NodeHttpTransport({ apiKey, apiSecret, maxSockets, maxResponseBytes });
	const client = new SmsLeopardClient({
		...clientOptions,
		transport,
		sleep: async (ms) => {
			await wait(ms);
		},
	});
	return { client, transport };
}
