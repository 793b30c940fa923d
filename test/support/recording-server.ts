/**
 * A loopback HTTP server that answers every request the same way and records what it received,
 * including whether an Authorization header came with it (never the header's value).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';

export interface RecordedRequest {
	path: string;
	hadAuthorization: boolean;
}

export interface RecordingServer {
	/** http://127.0.0.1:<port> */
	url: string;
	port: number;
	requests: RecordedRequest[];
	stop(): Promise<void>;
}

export async function startRecordingServer(
	answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<RecordingServer> {
	const requests: RecordedRequest[] = [];
	const server = createServer((request, response) => {
		requests.push({
			path: request.url ?? '',
			hadAuthorization: request.headers.authorization !== undefined,
		});
		answer(request, response);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		requests,
		stop: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

/** Answers 302 to `location` (plus the request's path and query), as a hostile host might. */
export function redirectTo(location: string, status = 302) {
	return (request: IncomingMessage, response: ServerResponse) => {
		response.writeHead(status, { location: `${location}${request.url ?? ''}` });
		response.end();
	};
}

export function answerJson(status: number, body: unknown) {
	return (_request: IncomingMessage, response: ServerResponse) => {
		response.writeHead(status, { 'content-type': 'application/json' });
		response.end(JSON.stringify(body));
	};
}
