/**
 * The e2e suite's set-up: the secret scan's, then the package packed once for every file (npm pack
 * runs the prepack build, 15-20 s; per file that was about 2.5 minutes of a CI run), unless the
 * run packed it already (`.ci/run`). Jest's workers inherit E2E_PACKED_TARBALL.
 */
import secretScanSetup from '../secret-scan/global-setup';
import { packForSuite } from './harness/pack';

export default function globalSetup(): void {
	secretScanSetup();
	packForSuite();
}
