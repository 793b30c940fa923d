// A full collection on demand, without starting jest under --expose-gc: V8 accepts the flag at
// run time, and a fresh context then sees `gc`. Tests that check what is still referenced use it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

export function collectGarbage(): void {
	gc();
}
