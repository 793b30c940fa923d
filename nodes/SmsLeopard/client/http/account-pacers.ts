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
 * Limit: a campaign's batches sending at once on every worker). As one joins, the process takes the
 * joiner's share once for each execution it runs then (`limitAtJoin`), never beyond the limit, and
 * keeps that rate as executions leave: a worker running two batches of a campaign counted four
 * sending (two workers) and sends at half the limit, whichever of its batches is sending. Adding the
 * shares up instead lost the worker's share whenever one of its batches was between sends, and
 * over-shared when the count missed one (decision 0015). Executions that all set the same limit and
 * no sharing pace at that limit together, as before.
 *
 * A batch also waits in turn behind the batches that joined the process before it (`Pacer.wait`):
 * the first sends at the process's whole rate while the next one, taken and checked beside it,
 * waits; when the first has no call left, the next takes every start. So a worker is never between
 * sends while it has a batch ready.
 */
import type { Pacer, PacerTurns } from './pacing';

export interface PacerLease {
	/** The shared pacer, waited on in this execution's turn (see `join`). */
	readonly pacer: PacerTurns;
	/** The pacer itself, shared by every execution of the account in the process. */
	readonly shared: Pacer;
	/** The execution is done with the pacer; the last to leave removes it. */
	leave(): void;
	/** Whether another execution of the process uses the pacer now (it may be sending). */
	othersUsingIt(): boolean;
}

interface Entry {
	pacer: Pacer;
	members: number;
	/** Parallel calls of every execution in the entry, so the pacer's spread counts them all. */
	parallelCalls: number;
	/** Each execution's Max Requests per Second and its share of it (0: none). */
	limits: ExecutionLimit[];
	/** What the executions allow together, set as the last one joined (see `limitAtJoin`). */
	rate: number;
	/** Executions with a share that joined so far: the next one's turn. */
	sharingJoins: number;
}

/** An execution's Max Requests per Second (`limit`) and the part of it it sends at (`share`). */
export interface ExecutionLimit {
	share: number;
	limit: number;
}

/**
 * The smallest Max Requests per Second of the executions: the most they allow together, and the
 * limit the process's rate is a share of (the pacer keeps its gap between any two starts, and
 * counts the share from due times); none while one of them set none.
 */
function wholeLimitOf(limits: ExecutionLimit[]): number | undefined {
	if (limits.length === 0 || limits.some((entry) => !(entry.limit > 0))) return undefined;
	return Math.min(...limits.map((entry) => entry.limit));
}

/**
 * What the executions allow together as one more joins: the joiner's share once for each execution
 * the process runs now (itself included), never beyond the smallest limit any of them set; none
 * (0) while one of them set none.
 */
export function limitAtJoin(limits: ExecutionLimit[], joiner: ExecutionLimit): number {
	const whole = wholeLimitOf(limits);
	return whole === undefined ? 0 : Math.min(joiner.share * limits.length, whole);
}

/** As an execution leaves: the rate set at the last join, never beyond what those left allow. */
function limitAtLeave(limits: ExecutionLimit[], rate: number): number {
	const whole = wholeLimitOf(limits);
	return whole === undefined ? 0 : Math.min(rate, whole);
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
				rate: 0,
				sharingJoins: 0,
			};
			this.entries.set(key, entry);
		}
		entry.rate = limitAtJoin(entry.limits, limit);
		entry.pacer.setRequestsPerSecond(entry.rate, wholeLimitOf(entry.limits));
		const joined = entry;
		// An execution with a share (a campaign's batch) waits behind those that joined before it,
		// so one batch in a process sends at the process's whole rate while the next is ready beside
		// it; executions with none keep the first turn.
		const turn = limit.share < limit.limit ? ++joined.sharingJoins : 0;
		const pacer = joined.pacer;
		let left = false;
		return {
			shared: pacer,
			pacer: {
				wait: async (callTurn?: number) => await pacer.wait(callTurn ?? turn),
				finished: (ticket, outcome) => pacer.finished(ticket, outcome),
				pause: (ms) => pacer.pause(ms),
			},
			othersUsingIt: () => joined.members > (left ? 0 : 1),
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
					joined.rate = limitAtLeave(joined.limits, joined.rate);
					joined.pacer.setRequestsPerSecond(joined.rate, wholeLimitOf(joined.limits));
				}
			},
		};
	}

	/** Accounts with a pacer in use (for tests: nothing stays once every run left). */
	get size(): number {
		return this.entries.size;
	}
}
