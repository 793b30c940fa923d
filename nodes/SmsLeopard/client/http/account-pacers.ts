/**
 * One pacer per account for every run of the same process. Executions running at once (n8n runs
 * several per process, in regular mode and on each queue-mode worker) used to pace on their own:
 * ten of them each found the account's limit by meeting it, and together sent ten times the rate
 * the account allows, so far more requests were refused and retried (measured: ten executions of 40
 * sends took 2.2 to 2.9 times as long as one execution of 400). Sharing one pacer, they queue their
 * starts in one line and learn the limit once.
 *
 * An entry lives while an execution uses it: the last one to leave removes it, so nothing is kept
 * between runs and memory stays bounded by the runs in flight.
 *
 * Each execution brings its Max Requests per Second and its share of it (Executions Sharing the
 * Limit: a campaign's batches sending at once on every worker), and the pacer keeps what they allow
 * together (`limitOf`): their shares added up, never beyond the limit. Executions that all set the
 * same limit and no sharing pace at that limit together, as before; a campaign's batches that n8n
 * runs in one process (regular mode, or a worker running several) add their shares back up.
 */
import type { Pacer } from './pacing';

export interface PacerLease {
	readonly pacer: Pacer;
	/** The execution is done with the pacer; the last to leave removes it. */
	leave(): void;
}

interface Entry {
	pacer: Pacer;
	members: number;
	/** Parallel calls of every execution in the entry, so the pacer's spread counts them all. */
	parallelCalls: number;
	/** Each execution's Max Requests per Second and its share of it (0: none). */
	limits: ExecutionLimit[];
}

/** An execution's Max Requests per Second (`limit`) and the part of it it sends at (`share`). */
export interface ExecutionLimit {
	share: number;
	limit: number;
}

/**
 * What executions sharing one pacer allow together: their shares added up, never beyond the
 * smallest limit any of them set; none while one of them set none.
 */
export function limitOf(limits: ExecutionLimit[]): number {
	if (limits.length === 0 || limits.some((entry) => !(entry.limit > 0))) return 0;
	const shares = limits.reduce((total, entry) => total + entry.share, 0);
	return Math.min(shares, ...limits.map((entry) => entry.limit));
}

export class AccountPacers {
	private readonly entries = new Map<string, Entry>();

	/**
	 * The pacer of `key` (an account and the settings that shape its pacing), made by `create` for
	 * the first execution; `parallelCalls` is this execution's share of the calls in flight and
	 * `limit` its Max Requests per Second and its share of it (both 0: no limit).
	 */
	join(
		key: string,
		parallelCalls: number,
		create: (parallelCalls: number) => Pacer,
		limit: ExecutionLimit,
	): PacerLease {
		let entry = this.entries.get(key);
		if (entry) {
			entry.members += 1;
			entry.parallelCalls += parallelCalls;
			entry.limits.push(limit);
			entry.pacer.setParallelCalls(entry.parallelCalls);
		} else {
			entry = {
				pacer: create(parallelCalls),
				members: 1,
				parallelCalls,
				limits: [limit],
			};
			this.entries.set(key, entry);
		}
		entry.pacer.setRequestsPerSecond(limitOf(entry.limits));
		const joined = entry;
		let left = false;
		return {
			pacer: joined.pacer,
			leave: () => {
				if (left) return;
				left = true;
				joined.members -= 1;
				joined.parallelCalls -= parallelCalls;
				joined.limits.splice(joined.limits.indexOf(limit), 1);
				if (joined.members === 0) {
					if (this.entries.get(key) === joined) this.entries.delete(key);
				} else {
					joined.pacer.setParallelCalls(joined.parallelCalls);
					joined.pacer.setRequestsPerSecond(limitOf(joined.limits));
				}
			},
		};
	}

	/** Accounts with a pacer in use (for tests: nothing stays once every run left). */
	get size(): number {
		return this.entries.size;
	}
}
