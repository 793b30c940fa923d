/**
 * Listings (an account's senders, a sender's templates) kept between executions of one n8n process,
 * so an execution that sends one message makes one request, not three (list senders, list
 * templates, send). One instance per process (`KEPT_LISTINGS`), like the account pacers: n8n runs
 * several executions per process, in regular mode and on each queue-mode worker, and each process
 * keeps its own.
 *
 * Bounded in number (the least recently used entry goes first) and in age (each execution says how
 * old a listing it accepts). Callers missing the same key at once share one fetch (single flight).
 * A failed fetch is never kept, nor is a value `keep` turns down; a key forgotten while its fetch is
 * under way does not get that fetch's value, since it may predate what made the caller forget.
 *
 * Keys are built by the caller from a hash of the credential (helpers/account-key.ts): no secret is
 * ever held here in clear.
 */
export interface Listed<T> {
	value: T;
	/** Served from memory, fetched by an earlier execution: it may be up to the accepted age old. */
	kept: boolean;
}

interface Entry {
	value: unknown;
	/** When its fetch started: the age counts from there, so it never looks younger than it is. */
	fetchedAt: number;
}

/** Entries per process: accounts × senders × kinds in use; a listing is a few kilobytes. */
export const MAX_KEPT_LISTINGS = 200;

export class KeptListings {
	private readonly entries = new Map<string, Entry>();
	private readonly pending = new Map<string, Promise<unknown>>();

	constructor(
		private readonly maxEntries = MAX_KEPT_LISTINGS,
		private readonly now: () => number = Date.now,
	) {}

	/** The listing of `key` if it was fetched less than `maxAgeMs` ago; otherwise fetched. */
	async get<T>(
		key: string,
		maxAgeMs: number,
		fetch: () => Promise<T>,
		keep: (value: T) => boolean,
	): Promise<Listed<T>> {
		const entry = this.entries.get(key);
		if (entry && this.now() - entry.fetchedAt < maxAgeMs) {
			// Most recently used last, so the bound drops the one unused longest.
			this.entries.delete(key);
			this.entries.set(key, entry);
			return { value: entry.value as T, kept: true };
		}
		return { value: await this.fetch(key, fetch, keep), kept: false };
	}

	/**
	 * Fetches `key` anew, or joins the fetch already under way (it started after anything kept, so
	 * it is as fresh), and keeps its value.
	 */
	async fetch<T>(key: string, fetch: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
		const underWay = this.pending.get(key) as Promise<T> | undefined;
		if (underWay) return await underWay;
		const fetchedAt = this.now();
		// Kept (or not) before any caller resumes, so the next call already finds it.
		const finished: Promise<T> = fetch().then(
			(value) => {
				if (this.pending.get(key) !== finished) return value; // forgotten meanwhile: not kept
				this.pending.delete(key);
				if (keep(value)) this.store(key, value, fetchedAt);
				return value;
			},
			(error: unknown) => {
				if (this.pending.get(key) === finished) this.pending.delete(key);
				throw error;
			},
		);
		this.pending.set(key, finished);
		return await finished;
	}

	/** Drops `key` (a send said the listing is wrong); a fetch under way is not kept either. */
	forget(key: string): void {
		this.entries.delete(key);
		this.pending.delete(key);
	}

	/** Everything dropped (tests start each from an empty process memory). */
	forgetAll(): void {
		this.entries.clear();
		this.pending.clear();
	}

	/** Listings kept now (for tests: the bound holds). */
	get size(): number {
		return this.entries.size;
	}

	private store(key: string, value: unknown, fetchedAt: number): void {
		this.entries.delete(key);
		this.entries.set(key, { value, fetchedAt });
		while (this.entries.size > this.maxEntries) {
			const oldest = this.entries.keys().next().value as string;
			this.entries.delete(oldest);
		}
	}
}

/**
 * The listings kept in this n8n process: module state, so every execution of the process finds
 * the same memory (as the account pacers in transport/client-for-node.ts).
 */
export const KEPT_LISTINGS = new KeptListings();
