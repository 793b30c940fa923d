/**
 * The README's "Usage with AI agents" minimum version: in every n8n of the matrix, with the packed
 * package installed as users install it and no setting changed, the editor is offered "SMSLeopard
 * Tool" (the node n8n builds from `usableAsTool`), which plugs into an AI Agent's Tool input.
 */
import {
	N8nRest,
	type N8nServer,
	type UserFolder,
	packedForThisFile,
	prepareUserFolder,
	removeUserFolder,
	sharedServer,
	startN8nServer,
} from './harness';
import { selectedVersions } from './matrix';
import { NODE_TYPE } from './workflows/build';

const tarball = packedForThisFile();

interface NodeTypeListing {
	name: string;
	displayName: string;
	outputs: unknown;
	credentials?: Array<{ name: string }>;
}

describe.each(selectedVersions())('n8n %s', (version) => {
	let folder: UserFolder | undefined;
	let server: N8nServer | undefined;
	let rest: N8nRest;

	beforeAll(async () => {
		// The run's shared n8n (harness/shared-n8n.ts) when there is one: the node types it loaded
		// are the same, and nothing here changes any.
		const shared = sharedServer(version);
		if (shared) {
			rest = await N8nRest.signedIn(shared.server.url);
			return;
		}
		folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
		server = await startN8nServer(folder, { startTimeoutMs: 240_000 });
		rest = await N8nRest.owner(server.url);
	}, 300_000);

	afterAll(async () => {
		await server?.stop();
		if (folder) removeUserFolder(folder);
	});

	it('offers SMSLeopard Tool for AI agents, with the SMSLeopard credential, without any setting', async () => {
		const types = await rest.nodeTypes<NodeTypeListing>();
		const tool = types.find((entry) => entry.name === `${NODE_TYPE}Tool`);
		expect(tool).toMatchObject({ displayName: 'SMSLeopard Tool', outputs: ['ai_tool'] });
		expect(tool?.credentials?.map((entry) => entry.name)).toEqual(['smsLeopardApi']);
	});
});
