/**
 * What the demo and `npm start` share: the packed package installed into a real n8n user folder,
 * with a credential pointing at a running sandbox and the demo workflow imported.
 */
import {
	type UserFolder,
	type WorkflowJson,
	ensureN8n,
	importCredentials,
	importWorkflows,
	packPackage,
	removePackedTarball,
	prepareUserFolder,
} from '../test/e2e/harness';
import { demoWorkflow } from '../test/e2e/workflows/demo';
import type { Sandbox } from '../test/sandbox';

/** The n8n the demo runs on: the newest that runs on this machine's Node 20. */
export const DEMO_N8N_VERSION = process.env.DEMO_N8N_VERSION ?? '2.8.4';
export const DEMO_CREDENTIAL = { id: 'smsleopardSandbox1', name: 'SMSLeopard sandbox' };

export function step(message: string): void {
	process.stdout.write(`\u001b[2m- ${message}\u001b[0m\n`);
}

export async function prepareDemoFolder(
	sandbox: Sandbox,
	moreWorkflows: WorkflowJson[] = [],
): Promise<{ folder: UserFolder; workflowId: string; moreWorkflowIds: string[] }> {
	step(
		`making sure n8n ${DEMO_N8N_VERSION} is installed (first time: about 4 minutes, then cached in .cache/n8n)`,
	);
	ensureN8n(DEMO_N8N_VERSION);
	step('building and packing the package (npm pack)');
	const tarball = packPackage();
	step(
		'installing the packed package into a fresh n8n user folder, as n8n installs community nodes',
	);
	const folder = await prepareUserFolder({
		n8nVersion: DEMO_N8N_VERSION,
		packageTarball: tarball,
	}).finally(() => removePackedTarball(tarball));
	step('importing a credential for the sandbox and the demo workflow');
	await importCredentials(folder, [
		{
			...DEMO_CREDENTIAL,
			type: 'smsLeopardApi',
			data: { ...sandbox.credentialData },
		},
	]);
	const [workflowId, ...moreWorkflowIds] = await importWorkflows(folder, [
		{ id: 'smsleopardDemo1', ...demoWorkflow(DEMO_CREDENTIAL) },
		...moreWorkflows,
	]);
	return { folder, workflowId, moreWorkflowIds };
}
