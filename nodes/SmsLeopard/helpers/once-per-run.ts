/**
 * The one per-execution cache of the node: a call (a listing, an upload, a file's hash) made once
 * per key and shared by every item that needs it. A failure is forgotten (the next item asks again,
 * so one passing outage cannot decide the rest of the run) unless `keepFailure` says the failure is
 * the answer itself (a sender found wrong stays wrong).
 */
export class OncePerRun {
	private readonly pending = new Map<string, Promise<unknown>>();

	async get<T>(
		kind: string,
		key: string,
		start: () => Promise<T>,
		keepFailure: (error: unknown) => boolean = () => false,
	): Promise<T> {
		const cacheKey = `${kind}\u0000${key}`;
		let pending = this.pending.get(cacheKey) as Promise<T> | undefined;
		if (!pending) {
			pending = start();
			this.pending.set(cacheKey, pending);
			pending.catch((error: unknown) => {
				if (!keepFailure(error)) this.pending.delete(cacheKey);
			});
		}
		return await pending;
	}
}
