/** The e2e suite's tear-down: the tarball its set-up packed goes, then the secret scan runs. */
import secretScanTeardown from '../secret-scan/global-teardown';
import { removeSuiteTarball } from './harness/pack';

export default function globalTeardown(): void {
	removeSuiteTarball();
	secretScanTeardown();
}
