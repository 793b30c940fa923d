// The ports the suites give n8n, Postgres and Redis: out of the range the OS draws outgoing
// connections' local ports from, so nothing takes one between the choice and the server's start.
import { ephemeralStart, freePort, saysPortInUse } from '../e2e/harness/free-port';

describe('ports for the servers the tests start', () => {
	it('come from below the OS ephemeral range, where no outgoing connection lands', async () => {
		const start = ephemeralStart();
		const ports = [];
		for (let i = 0; i < 200; i++) ports.push(await freePort());
		for (const port of ports) {
			expect(port).toBeGreaterThanOrEqual(15_000);
			expect(port).toBeLessThan(start);
		}
	});

	it('are never handed out twice by one process', async () => {
		const ports = new Set<number>();
		for (let i = 0; i < 500; i++) ports.add(await freePort());
		expect(ports.size).toBe(500);
	});

	it("n8n's words for a taken port are recognised, so a start on a taken port is retried", () => {
		// Verbatim from a CI run (n8n 2.8.4) where an outgoing connection took the broker's port.
		expect(
			saysPortInUse(
				"n8n Task Broker's port 33439 is already in use. Do you have another instance of n8n running already?",
			),
		).toBe(true);
		expect(saysPortInUse("n8n's port 5678 is already in use. Do you have another instance")).toBe(
			true,
		);
		expect(saysPortInUse('n8n ready on 127.0.0.1, port 42029')).toBe(false);
		// A workflow's own error is not n8n failing to start: running it again could send twice.
		expect(saysPortInUse('connect EADDRINUSE 127.0.0.1:443')).toBe(false);
	});
});
