// Injected trouble: rate limiting and random 500s. Deterministic (seeded RNG) so a failing test
// fails the same way every run.
import type { HostName, ResolvedOptions } from './types';

/** mulberry32: tiny, fast, good enough for choosing which requests fail. */
function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

export class Faults {
	private windows: Record<HostName, number[]> = { chat: [], contacts: [] };
	private random: () => number;

	constructor(private readonly options: ResolvedOptions) {
		this.random = mulberry32(options.seed);
	}

	reset(): void {
		this.windows = { chat: [], contacts: [] };
		this.random = mulberry32(this.options.seed);
	}

	/**
	 * Sliding one-second window per host. Only admitted requests occupy the window (a client that
	 * keeps hammering while limited is not punished further). Returns the Retry-After seconds when
	 * the request must be refused, otherwise null.
	 */
	admit(host: HostName, now: number): number | null {
		const limit = this.options.rateLimitPerSecond;
		const window = this.windows[host].filter((t) => now - t < 1000);
		this.windows[host] = window;
		if (limit !== undefined && limit > 0 && window.length >= limit) {
			return Math.max(1, Math.ceil((window[0] + 1000 - now) / 1000));
		}
		window.push(now);
		return null;
	}

	/** Drawn once per authorised request, whatever the rate, so the sequence stays reproducible. */
	shouldFail(): boolean {
		const draw = this.random();
		return this.options.failureRate > 0 && draw < this.options.failureRate;
	}
}
