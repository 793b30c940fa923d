/**
 * A port taken between the harness's choice and n8n's start (seen in CI: "n8n Task Broker's port
 * 33439 is already in use", an outgoing connection had it): n8n exits at once having run nothing,
 * and the harness starts it again on another port instead of failing the suite. Proved with a real
 * n8n and a port held here, handed out first.
 */
import { createServer, type Server } from 'net';

import {
	type N8nServer,
	type UserFolder,
	executeWorkflow,
	freePort,
	importWorkflow,
	packedForThisFile,
	prepareUserFolder,
	removeUserFolder,
	startN8nServer,
} from './harness';
import { selectedVersions } from './matrix';
import { code, trigger, workflow } from './workflows/build';

const tarball = packedForThisFile();
// One version is enough: the harness's retry is the same for all of them. A 2.x one: n8n 1.x
// starts no task broker unless N8N_RUNNERS_ENABLED is set, so its broker port is never bound.
const version =
	selectedVersions().find((entry) => Number(entry.split('.')[0]) >= 2) ?? selectedVersions()[0];

let folder: UserFolder;
let held: Server;
let heldPort: number;

/**
 * Hands out the held port as the `at`-th port asked for (startN8nServer asks for the server's,
 * then the broker's), free ones otherwise.
 */
function heldPortAs(at: number): { choose: () => Promise<number>; handedOut: number[] } {
	const handedOut: number[] = [];
	return {
		handedOut,
		choose: async () => {
			const port = handedOut.length === at ? heldPort : await freePort();
			handedOut.push(port);
			return port;
		},
	};
}

beforeAll(async () => {
	folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
	heldPort = await freePort();
	// Takes the port and drops whoever connects (n8n's readiness probe included).
	held = createServer((socket) => socket.destroy());
	await new Promise<void>((resolve) => held.listen(heldPort, '127.0.0.1', resolve));
}, 240_000);

afterAll(async () => {
	await new Promise((resolve) => held?.close(resolve));
	if (folder) removeUserFolder(folder);
});

describe(`a taken port in n8n ${version}`, () => {
	it.each([
		['its task broker', 1],
		['its own server', 0],
	])(
		'n8n start whose port for %s was taken starts again on others and answers',
		async (_, at) => {
			const ports = heldPortAs(at);
			let server: N8nServer | undefined;
			try {
				server = await startN8nServer(folder, {
					choosePort: ports.choose,
					startTimeoutMs: 240_000,
				});
				// Two ports for the failed start, two for the one that answers.
				expect(ports.handedOut).toHaveLength(4);
				expect(ports.handedOut[at]).toBe(heldPort);
				expect(ports.handedOut.slice(2)).not.toContain(heldPort);
				expect(new URL(server.url).port).toBe(String(ports.handedOut[2]));
				expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
			} finally {
				await server?.stop();
			}
		},
		300_000,
	);

	it('n8n execute whose broker port was taken runs the workflow on another', async () => {
		const id = await importWorkflow(
			folder,
			workflow('Taken port', [[trigger(), code('Mark', "[{ json: { ran: 'yes' } }]")]]),
		);
		const { choose, handedOut } = heldPortAs(0);
		const run = await executeWorkflow(folder, id, { choosePort: choose });
		expect(handedOut[0]).toBe(heldPort);
		expect(handedOut).toHaveLength(2);
		expect(run.ok).toBe(true);
		expect(run.stdout).toContain('"ran": "yes"');
	}, 300_000);
});
