/**
 * The listings of one execution, in front of the memory kept across executions
 * (kept-listings.ts): each listing is asked for once per execution and shared by its items, taken
 * from that memory when it is young enough, and fetched again at most once per execution when an
 * item is about to be refused against a kept one (fresh() below). With an age of 0 nothing is read
 * from or written to that memory: each execution lists for itself, as before the memory existed.
 */
import { SmsLeopardBadRequestError, SmsLeopardNotFoundError } from '../client';
import { type KeptListings, type Listed } from './kept-listings';

/**
 * A send or upload the service refused (400, 404: a template removed, no longer approved or
 * changed, a sender gone): the kept listing it was checked against may be wrong, so it is dropped.
 */
export function refutesKeptListing(error: unknown): boolean {
	return error instanceof SmsLeopardBadRequestError || error instanceof SmsLeopardNotFoundError;
}

export class RunListings {
	private readonly run = new Map<string, Promise<Listed<unknown>>>();
	private readonly renewed = new Map<string, Promise<unknown>>();

	constructor(
		private readonly memory: KeptListings,
		/** helpers/account-key.ts: a hash, never the secret. */
		private readonly account: string,
		/** Age accepted for a kept listing; 0 = none kept. */
		private readonly maxAgeMs: number,
	) {}

	/** A listing for this execution: kept, or fetched now. A failure is not remembered. */
	async get<T>(
		kind: string,
		key: string,
		fetch: () => Promise<T>,
		keep: (value: T) => boolean,
	): Promise<Listed<T>> {
		const id = this.keyOf(kind, key);
		let listed = this.run.get(id) as Promise<Listed<T>> | undefined;
		if (!listed) {
			listed =
				this.maxAgeMs > 0
					? this.memory.get(id, this.maxAgeMs, fetch, keep)
					: fetch().then((value) => ({ value, kept: false }));
			this.remember(id, listed);
		}
		return await listed;
	}

	/**
	 * The listing as it is now: the execution's own if it fetched it, else fetched anew once for the
	 * whole execution (every item then uses that one). What an item is refused against must not be
	 * older than this execution.
	 */
	async fresh<T>(
		kind: string,
		key: string,
		fetch: () => Promise<T>,
		keep: (value: T) => boolean,
	): Promise<T> {
		const current = await this.get(kind, key, fetch, keep);
		if (!current.kept) return current.value;
		const id = this.keyOf(kind, key);
		let renewed = this.renewed.get(id) as Promise<T> | undefined;
		if (!renewed) {
			renewed = this.memory.fetch(id, fetch, keep);
			this.renewed.set(id, renewed);
			this.remember(
				id,
				renewed.then((value) => ({ value, kept: false })),
			);
			// A failed renewal is not kept: the next item that needs it asks again.
			renewed.catch(() => {
				if (this.renewed.get(id) === renewed) this.renewed.delete(id);
			});
		}
		return await renewed;
	}

	/** Drops the kept listing (a send came back refused); this execution's own copy stays. */
	forget(kind: string, key: string): void {
		if (this.maxAgeMs > 0) this.memory.forget(this.keyOf(kind, key));
	}

	private keyOf(kind: string, key: string): string {
		return `${this.account}\u0000${kind}\u0000${key}`;
	}

	private remember(id: string, listed: Promise<Listed<unknown>>): void {
		this.run.set(id, listed);
		listed.catch(() => {
			if (this.run.get(id) === listed) this.run.delete(id);
		});
	}
}
