/**
 * Decides when each request may start. Three reasons to hold one back, the longest wins:
 * - a requests-per-second limit the user set (accounts with a known limit);
 * - a limit learned from the service: on a 429, the rate the service had just accepted, less a margin,
 *   becomes the spacing for the rest of the run, so parallel items stop running into the limit and
 *   waiting out Retry-After again and again;
 * - with several callers in parallel, a spread: requests start a fraction of a round trip apart
 *   instead of all at once, so their answers do not arrive (and queue for the CPU) in bursts. The
 *   spread stays shorter than round trip / callers, so it never becomes the bottleneck.
 * And while the service has asked to wait (429 Retry-After), every caller waits.
 */
import type { Sleep } from './retry';

export interface PacerOptions {
	/** 0 or absent: no limit of its own. */
	requestsPerSecond?: number;
	/** How many calls run at the same time (the node's "Items in Parallel"); 1 or absent: no spread. */
	parallelCalls?: number;
	now?: () => number;
}

/** A call's start, handed back to `finished` when its answer (or failure) is in. */
export type CallTicket = { startedAt: number };

/** What a finished call tells the pacer. */
export type CallOutcome = 'answered' | 'rateLimited' | 'noAnswer';

/** Keep under the rate the service accepted: sliding windows and clock jitter punish exactness. */
export const LEARNED_RATE_MARGIN = 0.95;
/** Fewer accepted calls than this in the last second says nothing about the service's limit. */
export const MIN_CALLS_TO_LEARN = 10;
/** The spread uses this share of round trip / parallel calls, leaving headroom for jitter. */
const SPREAD_SHARE = 0.9;
/** Never spread calls further apart than this, whatever a slow call measured. */
const MAX_SPREAD_MS = 100;
const ROUND_TRIP_SAMPLES = 31;
const ACCEPTED_STARTS_KEPT = 2048;

export class Pacer {
	private nextSlotAt = 0;
	private pausedUntil = 0;
	private readonly limitIntervalMs: number;
	private learnedIntervalMs = 0;
	private readonly parallelCalls: number;
	private readonly now: () => number;
	/** Recent round trips, for the spread. */
	private readonly roundTrips = new RecentValues(ROUND_TRIP_SAMPLES);
	private spreadMs = 0;
	/** Start times of recent calls the service accepted, for learning its limit. */
	private readonly acceptedStarts = new RecentValues(ACCEPTED_STARTS_KEPT);

	constructor(
		private readonly sleep: Sleep,
		options: PacerOptions = {},
	) {
		const rps = options.requestsPerSecond;
		this.limitIntervalMs = rps && rps > 0 ? 1000 / rps : 0;
		this.parallelCalls = Math.max(1, Math.floor(options.parallelCalls ?? 1));
		this.now = options.now ?? Date.now;
	}

	/** The spacing now in force between two starts, in ms. */
	get intervalMs(): number {
		return Math.max(this.limitIntervalMs, this.learnedIntervalMs, this.spreadMs);
	}

	/** Resolves when this caller may send. */
	async wait(): Promise<CallTicket> {
		for (;;) {
			const now = this.now();
			const slot = Math.max(now, this.nextSlotAt, this.pausedUntil);
			const interval = this.intervalMs;
			if (interval > 0) this.nextSlotAt = slot + interval;
			if (slot <= now) return { startedAt: now };
			await this.sleep(slot - now);
			// A 429 seen while sleeping moved the pause further: wait again for it.
			if (this.pausedUntil <= this.now()) return { startedAt: this.now() };
		}
	}

	/** Reports how a call that started with `ticket` ended. */
	finished(ticket: CallTicket, outcome: CallOutcome): void {
		if (outcome === 'rateLimited') this.learnLimit(ticket.startedAt);
		if (outcome !== 'answered') return;
		this.acceptedStarts.add(ticket.startedAt);
		this.recordRoundTrip(this.now() - ticket.startedAt);
	}

	/** Everyone waits at least `ms` from now. */
	pause(ms: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
	}

	/** The service refused a call started at `refusedAt`: it had accepted what started the second before. */
	private learnLimit(refusedAt: number): void {
		const acceptedLastSecond = this.acceptedStarts.values.filter(
			(at) => at <= refusedAt && refusedAt - at < 1000,
		).length;
		if (acceptedLastSecond < MIN_CALLS_TO_LEARN) return;
		const interval = 1000 / (LEARNED_RATE_MARGIN * acceptedLastSecond);
		this.learnedIntervalMs = Math.max(this.learnedIntervalMs, interval);
	}

	private recordRoundTrip(ms: number): void {
		if (this.parallelCalls <= 1) return;
		this.roundTrips.add(Math.max(0, ms));
		const sorted = [...this.roundTrips.values].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)];
		this.spreadMs = Math.min(MAX_SPREAD_MS, (SPREAD_SHARE * median) / this.parallelCalls);
	}
}

/** The last `size` values added, oldest overwritten first. */
class RecentValues {
	readonly values: number[] = [];
	private cursor = 0;

	constructor(private readonly size: number) {}

	add(value: number): void {
		if (this.values.length < this.size) {
			this.values.push(value);
			return;
		}
		this.values[this.cursor] = value;
		this.cursor = (this.cursor + 1) % this.size;
	}
}
