/** The queue suite's set-up: the package packed once for every file (15-20 s a pack). */
import { packForSuite } from '../e2e/harness/pack';

export default function globalSetup(): void {
	packForSuite();
}
