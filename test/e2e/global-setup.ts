/**
 * The e2e suite's set-up: the secret scan's, then the package packed once for every file (npm pack
 * runs the prepack build, 15-20 s; per file that was about 2.5 minutes of a CI run), unless the
 * run packed it already (`.ci/run`), then one user folder template per n8n version with that
 * package installed and its database migrated (test/e2e/harness/folder-templates.ts), which every
 * file's user folders copy, then the shared n8n of each version (test/e2e/harness/shared-n8n.ts) for
 * the files that take it. Jest's workers inherit E2E_PACKED_TARBALL and the others' variables.
 */
import secretScanSetup from '../secret-scan/global-setup';
import { makeFolderTemplates } from './harness/folder-templates';
import { startSharedServers } from './harness/shared-n8n';
import { packForSuite } from './harness/pack';
import { selectedVersions } from './matrix';

export default async function globalSetup(): Promise<void> {
	secretScanSetup();
	packForSuite();
	const tarball = process.env.E2E_PACKED_TARBALL as string;
	await makeFolderTemplates(selectedVersions(), tarball);
	await startSharedServers(selectedVersions(), tarball);
}
