// Ports for the servers the tests start (n8n, its task broker, Postgres, Redis), chosen where
// nothing else on the machine takes them unasked.
//
// Why not `listen(0)`: the OS hands out such a port from its ephemeral range, the same range every
// outgoing connection's local port comes from. Between the choice and n8n binding it, a client
// socket (n8n makes a new connection for each request) could take it: seen in CI, "n8n Task
// Broker's port 33439 is already in use". Below the ephemeral range, only a process that asks for
// a port by number can take one, so the only contenders are the tests themselves, and each test
// process walks its own stretch of the range.
import { readFileSync } from 'fs';
import { createServer } from 'net';

/** Below this, well-known services (Postgres 5432, Redis 6379, n8n 5678/5679) are left alone. */
const LOWEST = 15_000;

/** Where the OS's ephemeral range starts (Linux: ip_local_port_range), 32768 if unknown. */
export function ephemeralStart(): number {
	try {
		const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(start) && start > LOWEST + 1_000) return start;
	} catch {
		// Not Linux: the IANA dynamic range starts at 49152, Linux's default at 32768.
	}
	return 32_768;
}

const highest = ephemeralStart() - 1;
const span = highest - LOWEST + 1;
// Each process starts at its own place (jest workers run side by side), then walks on, so one
// process never hands out a port twice and two processes meet only after thousands of ports.
let next = LOWEST + ((process.pid * 7_919 + Math.floor(Math.random() * span)) % span);

function listenable(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const server = createServer();
		server.unref();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});
}

/** A TCP port below the OS's ephemeral range that nothing listens on right now. */
export async function freePort(): Promise<number> {
	for (let tries = 0; tries < span; tries++) {
		const port = next;
		next = next >= highest ? LOWEST : next + 1;
		if (await listenable(port)) return port;
	}
	throw new Error(`no free port between ${LOWEST} and ${highest}`);
}

/** How many times the harness starts n8n when a port it chose was taken before n8n bound it. */
export const PORT_TAKEN_ATTEMPTS = 3;

/**
 * n8n's own words when a port it was given is taken at start (its server's, its task broker's, a
 * worker's health server's), and only those: a workflow's output that mentions EADDRINUSE must not
 * make the harness run it again.
 */
export function saysPortInUse(output: string): boolean {
	return /\bport \d+ is already in use/i.test(output);
}
