/** The queue suite's tear-down: the tarball its set-up packed goes. */
import { removeSuiteTarball } from '../e2e/harness/pack';

export default function globalTeardown(): void {
	removeSuiteTarball();
}
