/** A local server whose JSON answer never ends, for the tests of timeouts and answer size limits. */
import http from 'http';
import type net from 'net';

/**
 * - drip: a byte every 50 ms, for ever; slowDrip: a byte a second, for ever;
 * - flood: 64 KB chunks as fast as they are read, for ever;
 * - stall: headers and the start of a JSON body, then nothing, the socket left open;
 * - cut: a send answer that stops in the middle of its JSON, the socket left open;
 * - silent: reads the request and never answers, not even headers;
 * - slowHeaders: a status line, then a header that drips a byte every 300 ms, for ever.
 */
export type HostilePace =
	'drip' | 'slowDrip' | 'flood' | 'stall' | 'cut' | 'silent' | 'slowHeaders';

const CUT_ANSWER = '{"success":true,"recipients":[{"id":"4c1f0a62-97f1","number":"+2547';

export /** Answers every request in the way `pace` names; `requests` counts what reached it. */
async function hostileServer(pace: HostilePace) {
	const state = { written: 0, requests: 0 };
	const server = http.createServer((request, response) => {
		state.requests++;
		// The request is read whole first: the client has sent everything, as a server that acts would.
		request.resume();
		request.on('end', () => answer(response));
	});
	const answer = (response: http.ServerResponse) => {
		if (pace === 'silent') return;
		if (pace === 'slowHeaders') {
			// Raw bytes on the socket: a ServerResponse writes its headers in one piece.
			const socket = response.socket;
			socket?.write('HTTP/1.1 200 OK\r\nx-slow: ');
			const timer = setInterval(() => socket?.write('a'), 300);
			socket?.on('close', () => clearInterval(timer));
			return;
		}
		response.writeHead(200, { 'content-type': 'application/json' });
		if (pace === 'stall') {
			response.write('{"data":"');
			return;
		}
		if (pace === 'cut') {
			response.write(CUT_ANSWER);
			return;
		}
		response.write('{"data":"');
		const chunk = Buffer.alloc(pace === 'flood' ? 64 * 1024 : 1, 'x');
		let open = true;
		response.on('close', () => (open = false));
		const next = () => {
			if (!open) return;
			state.written += chunk.length;
			if (pace === 'flood') response.write(chunk, next);
			else setTimeout(() => response.write(chunk, next), pace === 'drip' ? 50 : 1000);
		};
		next();
	};
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		state,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
