/**
 * The n8n editor with this package installed, a sandbox credential and the demo workflow: what
 * `npm start` runs and what the README screenshots are taken of.
 */
import {
	type N8nServer,
	type UserFolder,
	type WorkflowJson,
	removeUserFolder,
	setUpOwner,
	startN8nServer,
} from '../test/e2e/harness';
import { type Sandbox, startSandbox } from '../test/sandbox';
import { DEMO_N8N_VERSION, prepareDemoFolder, step } from './demo-support';

export interface Editor {
	url: string;
	workflowId: string;
	/** The ids of `EditorPorts.moreWorkflows`, in their order. */
	moreWorkflowIds: string[];
	sandbox: Sandbox;
	server: N8nServer;
	folder: UserFolder;
	stop(): Promise<void>;
}

export interface EditorPorts {
	n8n: number;
	/** The sandbox's hosts; 0 picks free ports (the browser test), `npm start` uses fixed ones. */
	chat?: number;
	contacts?: number;
	/** Imported with the demo workflow (the browser test's own nodes). */
	moreWorkflows?: WorkflowJson[];
	/** n8n's output as it comes, and its environment (`npm start`: warnings only, printed). */
	n8nOutput?: (chunk: string) => void;
	n8nEnv?: Record<string, string>;
}

export async function startEditor(ports: number | EditorPorts): Promise<Editor> {
	const wanted: EditorPorts = typeof ports === 'number' ? { n8n: ports } : ports;
	const sandbox = await startSandbox({
		chatPort: wanted.chat ?? Number(process.env.SANDBOX_CHAT_PORT ?? 4010),
		contactsPort: wanted.contacts ?? Number(process.env.SANDBOX_CONTACTS_PORT ?? 4011),
		groupCount: 230,
	});
	step(`sandbox listening: chat ${sandbox.chatUrl}, contacts ${sandbox.contactsUrl}`);
	const { folder, workflowId, moreWorkflowIds } = await prepareDemoFolder(
		sandbox,
		wanted.moreWorkflows,
	);
	const port = wanted.n8n;
	step(`starting n8n ${DEMO_N8N_VERSION} on port ${port}`);
	const server = await startN8nServer(folder, {
		port,
		onOutput: wanted.n8nOutput,
		env: wanted.n8nEnv,
	});
	await setUpOwner(server.url);
	return {
		url: `http://localhost:${port}`,
		workflowId,
		moreWorkflowIds,
		sandbox,
		server,
		folder,
		stop: async () => {
			await server.stop();
			await sandbox.stop();
			removeUserFolder(folder);
		},
	};
}
