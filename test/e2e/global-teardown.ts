/**
 * The e2e suite's tear-down: the templates and tarball its set-up made go, then
 * the secret scan runs.
 */
import secretScanTeardown from '../secret-scan/global-teardown';
import { removeFolderTemplates } from './harness/folder-templates';
import { removeSuiteTarball } from './harness/pack';

export default function globalTeardown(): void {
	removeFolderTemplates();
	removeSuiteTarball();
	secretScanTeardown();
}
