/**
 * Spaces requests for accounts with a known rate limit, and holds every caller back while the
 * service has asked to wait (429 Retry-After), so parallel items do not keep hitting the limit.
 */
import type { Sleep } from './retry';

export class Pacer {
	private nextSlotAt = 0;
	private pausedUntil = 0;

	/** `requestsPerSecond` 0 or undefined: no spacing, only 429 pauses. */
	constructor(
		private readonly sleep: Sleep,
		requestsPerSecond?: number,
		private readonly now: () => number = Date.now,
	) {
		this.intervalMs = requestsPerSecond && requestsPerSecond > 0 ? 1000 / requestsPerSecond : 0;
	}

	private readonly intervalMs: number;

	/** Resolves when this caller may send. */
	async wait(): Promise<void> {
		for (;;) {
			const now = this.now();
			const slot = Math.max(now, this.nextSlotAt, this.pausedUntil);
			if (this.intervalMs > 0) this.nextSlotAt = slot + this.intervalMs;
			if (slot <= now) return;
			await this.sleep(slot - now);
			// A 429 seen while sleeping moved the pause further: wait again for it.
			if (this.pausedUntil <= this.now()) return;
		}
	}

	/** Everyone waits at least `ms` from now. */
	pause(ms: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
	}
}
