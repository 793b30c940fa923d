/** A local server whose JSON answer never ends, for the tests of timeouts and answer size limits. */
import http from 'http';
import type net from 'net';

export /** Answers every request with a JSON body that drips (a byte per 50 ms) or floods without end. */
async function hostileServer(pace: 'drip' | 'flood') {
	const state = { written: 0 };
	const server = http.createServer((_request, response) => {
		response.writeHead(200, { 'content-type': 'application/json' });
		response.write('{"data":"');
		const chunk = Buffer.alloc(pace === 'drip' ? 1 : 64 * 1024, 'x');
		let open = true;
		response.on('close', () => (open = false));
		const next = () => {
			if (!open) return;
			state.written += chunk.length;
			if (pace === 'drip') setTimeout(() => response.write(chunk, next), 50);
			else response.write(chunk, next);
		};
		next();
	});
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
