/**
 * A hostile gateway of the suite's own, independent of the sandbox: a raw node:http server on
 * 127.0.0.1 that answers each request as a script says (odd shapes, odd statuses, huge or deep
 * bodies, resets and stalls at each phase) and writes down the ground truth the invariants are
 * checked against: which requests it fully received, which items each carried, whether it may
 * have acted on them, and which message or record id it answered for which item.
 *
 * Two fault servers stand beside it for the phases before a request exists: a port with nothing
 * listening (refused) and a plain TCP socket that closes on the TLS ClientHello (TLS failed).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import net from 'net';

/** Where the gateway breaks off an answer. */
export type Fault =
	| 'none'
	/** The request was read whole, then the socket is reset: no answer. */
	| 'reset-after-request'
	/** Headers and part of the body, then a reset. */
	| 'reset-mid-body'
	/** Headers and part of the body, then silence with the socket left open. */
	| 'stall-mid-body'
	/** The request was read whole, then silence: not even headers. */
	| 'stall-before-headers';

/** A body the gateway writes, already rendered (the scripts decide its shape). */
export interface Answer {
	status: number;
	fault: Fault;
	/** Raw body text (may be empty, non-JSON, huge or deeply nested). */
	body: string;
	contentType?: string;
}

/** What the gateway did with one request: the ground truth of the invariants. */
export interface Exchange {
	method: string;
	path: string;
	/** The body was read to its end (the request reached the service). */
	received: boolean;
	/** Item indexes the request carried, by position (from the script's `itemsOf`). */
	items: number[];
	/** The gateway may have acted on it (not a 4xx refusal): its items may have been sent. */
	mayHaveActed: boolean;
	/** Ids the gateway answered for each position, as written in the body (any JSON type). */
	idsByPosition: unknown[][];
	answer?: Answer;
}

/** How the gateway reads and answers one request; the suite's scenarios provide it. */
export interface Script {
	/**
	 * The answer to a request (its body read whole), and which ids the answer gave to which
	 * position of the request's items.
	 */
	answer(request: {
		method: string;
		path: string;
		body: Buffer;
		/** The Authorization header as sent, for answers that echo the request. */
		authorization: string;
		items: number[];
		/** How many earlier requests carried the same first item (0 for the first attempt). */
		attempt: number;
	}): { answer: Answer; idsByPosition?: unknown[][] };
	/** Which items a request carries, in request order (empty for reads). */
	itemsOf(method: string, path: string, body: Buffer): number[];
}

export interface Gateway {
	exchanges: Exchange[];
	/** Ends every open socket: a run the guard gave up on is released this way. */
	dropConnections(): void;
	/**
	 * Starts a run with its own script and record; answers the base URL for the run's credential.
	 * A request of an earlier run (a retry after its guard gave up) is refused and not recorded.
	 */
	begin(script: Script): string;
	close(): Promise<void>;
}

/** The body's first bytes before a mid-body fault: enough for headers and a JSON opening. */
const HEAD_OF_BODY = 7;

function listen(server: Server | net.Server): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
	});
}

function writeAnswer(response: ServerResponse, answer: Answer): void {
	const { socket } = response;
	switch (answer.fault) {
		case 'reset-after-request':
			socket?.resetAndDestroy();
			return;
		case 'stall-before-headers':
			return;
		default:
			break;
	}
	response.writeHead(answer.status, {
		'content-type': answer.contentType ?? 'application/json',
	});
	if (answer.fault === 'none') {
		response.end(answer.body);
		return;
	}
	// Headers go out with the first bytes; what follows never does.
	response.write(answer.body.slice(0, HEAD_OF_BODY) || ' ');
	if (answer.fault === 'reset-mid-body') {
		// Let the headers and the first bytes leave before the reset.
		setTimeout(() => socket?.resetAndDestroy(), 20);
	}
}

/** Until a run begins, nothing is expected: every request is refused unread. */
const NO_RUN: Script = {
	itemsOf: () => [],
	answer: () => ({ answer: { status: 410, fault: 'none', body: '' } }),
};

export async function startGateway(): Promise<Gateway> {
	let script = NO_RUN;
	let run = 0;
	const exchanges: Exchange[] = [];
	const sockets = new Set<net.Socket>();
	const server = createServer((request: IncomingMessage, response: ServerResponse) => {
		const prefix = `/run-${run}`;
		if (!request.url?.startsWith(`${prefix}/`)) {
			request.resume();
			response.writeHead(410).end();
			return;
		}
		const exchange: Exchange = {
			method: request.method ?? 'GET',
			path: request.url.slice(prefix.length),
			received: false,
			items: [],
			mayHaveActed: false,
			idsByPosition: [],
		};
		exchanges.push(exchange);
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks);
			exchange.received = true;
			exchange.items = script.itemsOf(exchange.method, exchange.path, body);
			const first = exchange.items[0];
			const attempt =
				first === undefined
					? 0
					: exchanges.filter((other) => other !== exchange && other.items[0] === first).length;
			const planned = script.answer({
				method: exchange.method,
				path: exchange.path,
				body,
				authorization: request.headers.authorization ?? '',
				items: exchange.items,
				attempt,
			});
			exchange.answer = planned.answer;
			exchange.idsByPosition = planned.idsByPosition ?? [];
			// Only a 4xx that was actually delivered refuses; anything else may have been acted on.
			const refused =
				planned.answer.fault === 'none' &&
				planned.answer.status >= 400 &&
				planned.answer.status < 500;
			exchange.mayHaveActed = !refused;
			writeAnswer(response, planned.answer);
		});
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	// Big answers must not be held back by the server's own timeouts.
	server.requestTimeout = 0;
	server.headersTimeout = 0;
	const port = await listen(server);
	return {
		exchanges,
		dropConnections: () => sockets.forEach((socket) => socket.destroy()),
		begin(next) {
			script = next;
			exchanges.length = 0;
			run++;
			return `http://127.0.0.1:${port}/run-${run}`;
		},
		close: async () => {
			sockets.forEach((socket) => socket.destroy());
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** A port with nothing listening: bound, then closed again (the connection is refused). */
export async function refusedPort(): Promise<number> {
	const server = net.createServer();
	const port = await listen(server);
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/**
 * A plain TCP server for an https:// credential: it closes the socket as the ClientHello arrives
 * (or answers it with bytes that are not TLS), so the handshake fails before a request exists.
 */
export async function tlsBreaker(
	mode: 'close' | 'garbage',
): Promise<{ port: number; close(): Promise<void> }> {
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		socket.on('error', () => undefined);
		socket.once('data', () => {
			if (mode === 'garbage') socket.end('HTTP/1.1 400 Bad Request\r\n\r\nnot tls');
			else socket.destroy();
		});
	});
	const port = await listen(server);
	return {
		port,
		close: async () => {
			sockets.forEach((socket) => socket.destroy());
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
