/**
 * One n8n user folder for the whole bench: the packed package installed as n8n installs community
 * nodes (and beside it the bare sender, bare-sender.ts, a yardstick for n8n's own cost per send),
 * this node's credentials (one for the reply server the timing benchmarks use, one for the
 * sandbox), and the HTTP Request node's Basic Auth and Header Auth credentials, and every benchmark
 * workflow imported in one go.
 */
import { rmSync } from 'fs';

import {
	type UserFolder,
	importCredentials,
	importWorkflows,
	installPackage,
	packPackage,
	removePackedTarball,
	prepareUserFolder,
	resolveN8n,
} from '../test/e2e/harness';
import type { WorkflowJson } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { packBareSender } from './bare-sender';
import type { ReplyServer } from './reply-server';
import {
	BASIC_AUTH_CREDENTIAL,
	HEADER_AUTH_CREDENTIAL,
	SANDBOX_CREDENTIAL,
	SMSLEOPARD_CREDENTIAL,
} from './workflows';

export async function prepareBenchFolder(
	n8nVersion: string,
	sandbox: Sandbox,
	server: ReplyServer,
	workflows: WorkflowJson[],
): Promise<UserFolder> {
	// Fails with "run scripts/n8n/install-n8n.sh <version>" when the version is not installed.
	resolveN8n(n8nVersion);
	const tarball = packPackage();
	const yardstick = packBareSender();
	let folder: UserFolder | undefined;
	try {
		folder = await prepareUserFolder({ n8nVersion, packageTarball: tarball });
		await installPackage(folder, yardstick);
		const { apiKey, apiSecret } = sandbox.credentials;
		await importCredentials(folder, [
			{
				...SMSLEOPARD_CREDENTIAL,
				type: 'smsLeopardApi',
				data: {
					...sandbox.credentialData,
					chatUrl: server.chatUrl,
					contactsUrl: server.contactsUrl,
				},
			},
			{ ...SANDBOX_CREDENTIAL, type: 'smsLeopardApi', data: { ...sandbox.credentialData } },
			{
				...BASIC_AUTH_CREDENTIAL,
				type: 'httpBasicAuth',
				data: { user: apiKey, password: apiSecret },
			},
			{
				...HEADER_AUTH_CREDENTIAL,
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: server.authorization },
			},
		]);
		await importWorkflows(folder, workflows);
		return folder;
	} catch (error) {
		if (folder) rmSync(folder.root, { recursive: true, force: true });
		throw error;
	} finally {
		removePackedTarball(tarball);
		removePackedTarball(yardstick);
	}
}
