/**
 * One request per key and execution, shared by every item that needs it. A failure is forgotten
 * (the next item asks again, so one passing outage cannot decide the rest of the run) unless
 * `keepFailure` says the failure is the answer itself.
 */
export async function oncePerRun<T>(
	cache: Map<string, Promise<T>>,
	key: string,
	start: () => Promise<T>,
	keepFailure: (error: unknown) => boolean = () => false,
): Promise<T> {
	let pending = cache.get(key);
	if (!pending) {
		pending = start();
		cache.set(key, pending);
		pending.catch((error: unknown) => {
			if (!keepFailure(error)) cache.delete(key);
		});
	}
	return await pending;
}
