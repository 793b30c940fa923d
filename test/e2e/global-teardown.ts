/** The e2e suite's tear-down: the tarball packed for every file goes, then the secret scan runs. */
import secretScanTeardown from '../secret-scan/global-teardown';
import { removePackedTarball } from './harness/pack';

export default function globalTeardown(): void {
	removePackedTarball(process.env.E2E_PACKED_TARBALL);
	secretScanTeardown();
}
