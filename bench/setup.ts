/**
 * One n8n user folder for the whole bench: the packed package installed as n8n installs community
 * nodes, a credential of this node and an HTTP Basic Auth credential for the HTTP Request node (both
 * pointing at the sandbox), and every benchmark workflow imported in one go.
 */
import { rmSync } from 'fs';

import {
	type UserFolder,
	importCredentials,
	importWorkflows,
	packPackage,
	removePackedTarball,
	prepareUserFolder,
	resolveN8n,
} from '../test/e2e/harness';
import type { WorkflowJson } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { BASIC_AUTH_CREDENTIAL, SMSLEOPARD_CREDENTIAL } from './workflows';

export async function prepareBenchFolder(
	n8nVersion: string,
	sandbox: Sandbox,
	workflows: WorkflowJson[],
): Promise<UserFolder> {
	// Fails with "run scripts/n8n/install-n8n.sh <version>" when the version is not installed.
	resolveN8n(n8nVersion);
	const tarball = packPackage();
	let folder: UserFolder | undefined;
	try {
		folder = await prepareUserFolder({ n8nVersion, packageTarball: tarball });
		await importCredentials(folder, [
			{
				...SMSLEOPARD_CREDENTIAL,
				type: 'smsLeopardApi',
				data: { ...sandbox.credentialData },
			},
			{
				...BASIC_AUTH_CREDENTIAL,
				type: 'httpBasicAuth',
				data: { user: sandbox.credentials.apiKey, password: sandbox.credentials.apiSecret },
			},
		]);
		await importWorkflows(folder, workflows);
		return folder;
	} catch (error) {
		if (folder) rmSync(folder.root, { recursive: true, force: true });
		throw error;
	} finally {
		removePackedTarball(tarball);
	}
}
