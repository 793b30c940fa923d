/**
 * Connection failures through n8n's real httpRequestWithAuthentication. n8n wraps axios's error in a
 * NodeApiError (the code survives only in its httpCode and messages); the node must still read the
 * real cause: refused or unknown host = not sent, safe to run again; reset after the request was
 * written = may have been sent.
 */
import { mkdtempSync, rmSync } from 'fs';
import net from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import tls from 'tls';
import { binaryItem } from '../harness';
import { TEMPLATES } from '../sandbox';
import { selfSignedCertificate } from '../support/self-signed-certificate';
import {
	type NodeEnv,
	jsonItems,
	senderLocator,
	startNodeEnv,
	templateLocator,
	mediaUploadParameters,
} from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());

/** A port with nothing listening: bound, then closed again. */
async function closedPort(): Promise<number> {
	const server = net.createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** The failure item of one send to `chatUrl` (Continue On Fail), and how the node described it. */
async function failureOf(chatUrl: string) {
	const parameters = {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: senderLocator,
		template: templateLocator(TEMPLATES.flow.id),
		destination: '+254700000001',
		variablesMode: 'define',
		// No waiting between attempts: a failure that is safe to repeat fails at once.
		requestOptions: { timeout: 5, maxRateLimitWait: 0 },
	};
	const item = await env.run(parameters, jsonItems({}), { continueOnFail: true, chatUrl });
	expect(item.error).toBeUndefined();
	const stopped = await env.run(parameters, jsonItems({}), { chatUrl });
	return {
		json: item.items[0].json as Record<string, unknown>,
		description: String((stopped.error as { description?: string } | undefined)?.description),
	};
}

describe('connection failures inside n8n (httpRequestWithAuthentication)', () => {
	it('a refused connection is not sent, and says it is safe to run again', async () => {
		const { json, description } = await failureOf(`http://127.0.0.1:${await closedPort()}`);
		expect(json).toMatchObject({ code: 'ECONNREFUSED', mayHaveBeenSent: false });
		expect(description).toContain('did not reach the service');
		expect(description).not.toContain('may have reached');
	});

	it('a host name that does not resolve is not sent', async () => {
		const { json } = await failureOf('https://api.smsleopard.invalid');
		expect(json.mayHaveBeenSent).toBe(false);
		expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(json.code);
	});

	/**
	 * A server that answers the listings before a send (GET) with `onRead` and drops the connection
	 * without an answer (TCP RST) once it has read a send (POST).
	 */
	async function resettingSends(onRead: (socket: net.Socket) => void) {
		const server = net.createServer((socket) =>
			socket.once('data', (chunk: Buffer) => {
				if (chunk.toString('latin1').startsWith('GET ')) onRead(socket);
				else socket.resetAndDestroy();
			}),
		);
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		return server;
	}
	const notFound = (socket: net.Socket) =>
		socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');

	it('a reset after the request was written may have been sent', async () => {
		// The listings answer 404 (an account without them): the send itself goes out and is reset.
		const server = await resettingSends(notFound);
		const { port } = server.address() as net.AddressInfo;
		try {
			const { json, description } = await failureOf(`http://127.0.0.1:${port}`);
			expect(json).toMatchObject({ code: 'ECONNRESET', mayHaveBeenSent: true });
			expect(description).toContain('may have reached the service');
		} finally {
			server.close();
		}
	});

	it('a reset of the sender listing before the send is not sent, and safe to run again', async () => {
		const server = await resettingSends((socket) => socket.resetAndDestroy());
		const { port } = server.address() as net.AddressInfo;
		try {
			const { json, description } = await failureOf(`http://127.0.0.1:${port}`);
			expect(json).toMatchObject({ code: 'ECONNRESET', mayHaveBeenSent: false });
			expect(description).not.toContain('may have reached the service');
			expect(description).toMatch(/Not sent \(.*\): item 1; safe to run again/);
		} finally {
			server.close();
		}
	});

	it('Media > Upload: a reset of the sender check is not sent; a reset of the upload may be', async () => {
		const upload = mediaUploadParameters({
			requestOptions: { timeout: 5, maxRateLimitWait: 0 },
		});
		const file = Buffer.from('%PDF-1.4 catalogue');
		const outcome = async (onRead: (socket: net.Socket) => void) => {
			const server = await resettingSends(onRead);
			const { port } = server.address() as net.AddressInfo;
			try {
				const item = await binaryItem({}, 'data', file, 'catalogue.pdf', 'application/pdf');
				const { items } = await env.run(upload, [item], {
					continueOnFail: true,
					chatUrl: `http://127.0.0.1:${port}`,
				});
				return items[0].json;
			} finally {
				server.close();
			}
		};
		expect(await outcome((socket) => socket.resetAndDestroy())).toMatchObject({
			code: 'ECONNRESET',
			mayHaveBeenSent: false,
		});
		expect(await outcome(notFound)).toMatchObject({ code: 'ECONNRESET', mayHaveBeenSent: true });
	});

	describe('a TLS handshake that fails: the request was never written, so not sent', () => {
		/** Send SMS: its first request is the send itself (no listing before it). */
		const sms = {
			resource: 'message',
			operation: 'sendSms',
			source: 'SMS_Leopard',
			recipient: '+254700000001',
			message: 'Hello',
			requestOptions: { timeout: 5, maxRateLimitWait: 0 },
		};
		async function expectNotSent(server: net.Server) {
			const { port } = server.address() as net.AddressInfo;
			const contactsUrl = `https://127.0.0.1:${port}`;
			try {
				const { items } = await env.run(sms, jsonItems({}), { continueOnFail: true, contactsUrl });
				expect(items[0].json).toMatchObject({ mayHaveBeenSent: false });
				const { error } = await env.run(sms, jsonItems({}), { contactsUrl });
				expect(String(error?.description)).toContain(
					'did not reach the service: it is safe to run again',
				);
				return items[0].json;
			} finally {
				server.close();
			}
		}
		const listening = async <S extends net.Server>(server: S): Promise<S> => {
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			return server;
		};

		it.each([
			['closes the connection', (socket: net.Socket) => socket.destroy()],
			[
				'answers plain HTTP',
				(socket: net.Socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'),
			],
		])('the server %s on the ClientHello', async (_what, onHello) => {
			await expectNotSent(
				await listening(net.createServer((socket) => socket.once('data', () => onHello(socket)))),
			);
		});

		it('the server certificate is self-signed', async () => {
			const { key, cert } = throwAwayCertificate();
			const server = await listening(
				tls.createServer({ key, cert }, (socket) => socket.end('HTTP/1.1 201 Created\r\n\r\n')),
			);
			server.on('tlsClientError', () => undefined);
			expect(await expectNotSent(server)).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
		});
	});
});

/** A throw-away key and certificate for 127.0.0.1; the PEM files are removed at once. */
function throwAwayCertificate(): { key: Buffer; cert: Buffer } {
	const folder = mkdtempSync(join(tmpdir(), 'smsleopard-tls-'));
	try {
		const { key, cert } = selfSignedCertificate('127.0.0.1', folder);
		return { key, cert };
	} finally {
		rmSync(folder, { recursive: true, force: true });
	}
}
