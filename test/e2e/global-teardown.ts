/**
 * The e2e suite's tear-down: the shared servers, templates and tarball its set-up made go, then
 * the secret scan runs.
 */
import secretScanTeardown from '../secret-scan/global-teardown';
import { removeFolderTemplates } from './harness/folder-templates';
import { removeSuiteTarball } from './harness/pack';
import { stopSharedServers } from './harness/shared-n8n';

export default async function globalTeardown(): Promise<void> {
	// Stopped first: their output is recorded for the secret scan as they exit.
	await stopSharedServers();
	removeFolderTemplates();
	removeSuiteTarball();
	secretScanTeardown();
}
