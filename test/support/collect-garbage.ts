// A full collection on demand, without starting jest under --expose-gc: V8 accepts the flag at
// run time, and a fresh context then sees `gc`. Tests that check what is still referenced use it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
// V8 frees the memory of dead ArrayBuffers on a background thread after a collection, and
// process.memoryUsage().arrayBuffers counts them until it has: on a busy machine (CI's parallel
// workers) the streaming upload test read 17.7 and 28.0 MB "live" right after gc() where 0.06 MB
// were referenced. Sweeping them during the collection itself makes the count exact.
setFlagsFromString('--no-concurrent-array-buffer-sweeping');
const gc = runInNewContext('gc') as () => void;

export function collectGarbage(): void {
	gc();
}
