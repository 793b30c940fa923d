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
// One version is enough: the harness's retry is the same for all of them.
const version = selectedVersions()[0];

let folder: UserFolder;
let held: Server;
let heldPort: number;

/** Hands out the held port for the task broker first (the first port is the server's), then free ones. */
function brokerGetsTheHeldPort(): { choose: () => Promise<number>; handedOut: number[] } {
	const handedOut: number[] = [];
	return {
		handedOut,
		choose: async () => {
			const port = handedOut.length === 1 ? heldPort : await freePort();
			handedOut.push(port);
			return port;
		},
	};
}

beforeAll(async () => {
	folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
	heldPort = await freePort();
	held = createServer();
	await new Promise<void>((resolve) => held.listen(heldPort, '127.0.0.1', resolve));
}, 240_000);

afterAll(async () => {
	await new Promise((resolve) => held?.close(resolve));
	if (folder) removeUserFolder(folder);
});

describe(`a taken port in n8n ${version}`, () => {
	it('n8n start whose broker port was taken starts again on another and answers', async () => {
		const ports = brokerGetsTheHeldPort();
		let server: N8nServer | undefined;
		try {
			server = await startN8nServer(folder, { choosePort: ports.choose, startTimeoutMs: 240_000 });
			// Two ports for the failed start, two for the one that answers.
			expect(ports.handedOut).toHaveLength(4);
			expect(ports.handedOut[1]).toBe(heldPort);
			expect(ports.handedOut.slice(2)).not.toContain(heldPort);
			expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
		} finally {
			await server?.stop();
		}
	}, 300_000);

	it('n8n execute whose broker port was taken runs the workflow on another', async () => {
		const id = await importWorkflow(
			folder,
			workflow('Taken port', [[trigger(), code('Mark', "[{ json: { ran: 'yes' } }]")]]),
		);
		const handedOut: number[] = [];
		const run = await executeWorkflow(folder, id, {
			choosePort: async () => {
				const port = handedOut.length === 0 ? heldPort : await freePort();
				handedOut.push(port);
				return port;
			},
		});
		expect(handedOut[0]).toBe(heldPort);
		expect(handedOut).toHaveLength(2);
		expect(run.ok).toBe(true);
		expect(run.stdout).toContain('"ran": "yes"');
	}, 300_000);
});
