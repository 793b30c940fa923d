/**
 * The e2e suite's set-up: the secret scan's, then the package packed once for every file (npm pack
 * runs the prepack build, 15-20 s; per file that was about 2.5 minutes of a CI run). Jest's workers
 * inherit E2E_PACKED_TARBALL; packedForThisFile uses it when set.
 */
import secretScanSetup from '../secret-scan/global-setup';
import { packPackage } from './harness/pack';

export default function globalSetup(): void {
	secretScanSetup();
	process.env.E2E_PACKED_TARBALL = packPackage();
}
