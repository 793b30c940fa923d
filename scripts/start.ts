/**
 * `npm start`: the n8n editor on http://localhost:5678 with this package installed (packed, as users
 * get it), a credential for the local sandbox and the demo workflow, so a person can open the browser
 * and drag the node. Ctrl-C stops n8n and the sandbox.
 */
import { DEMO_N8N_VERSION } from './demo-support';
import { DEMO_OWNER } from '../test/e2e/harness';
import { startEditor } from './editor';
import { n8nLogLines } from './n8n-log-lines';

/** n8n's log level for `npm start`: its warnings and errors, unless N8N_LOG_LEVEL says otherwise. */
const LOG_LEVEL = process.env.N8N_LOG_LEVEL ?? 'warn';

async function main(): Promise<void> {
	const editor = await startEditor({
		n8n: Number(process.env.N8N_PORT ?? 5678),
		// Printed as they come: a refused trigger post, a workflow that could not be activated.
		n8nOutput: n8nLogLines((line) => console.log(line)),
		n8nEnv: { N8N_LOG_LEVEL: LOG_LEVEL },
	});
	console.log(`
n8n ${DEMO_N8N_VERSION} is running with n8n-nodes-smsleopard installed.

  Editor:        ${editor.url}
  Sign in:       ${DEMO_OWNER.email} / ${DEMO_OWNER.password}
  Demo workflow: ${editor.url}/workflow/${editor.workflowId}
  Credential:    "SMSLeopard sandbox" (points at the local sandbox)
  Sandbox:       ${editor.sandbox.chatUrl} (chat), ${editor.sandbox.contactsUrl} (contacts)
  n8n's log:     its ${LOG_LEVEL === 'warn' ? 'warnings and errors' : `${LOG_LEVEL} lines`} are printed below, as "n8n | ..." (a post the SMSLeopard
                 Trigger refused shows here, naming the workflow); N8N_LOG_LEVEL=info npm start prints more.

Press Ctrl-C to stop everything.`);
	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox...');
		await editor.stop();
		process.exit(0);
	};
	process.on('SIGINT', () => void stop());
	process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
