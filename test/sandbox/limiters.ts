// Rate limiters as API gateways commonly build them. The API documents no limit, so the node has to
// hold up against any of these; the sandbox uses them per host, and the pacer's virtual-clock tests
// use the very same code, so both meet the same limiter. Pure: time comes in as an argument.

/**
 * - `sliding`: at most `perSecond` requests admitted in any 1 s (the sandbox's first model);
 * - `fixed`: at most `perSecond` per 1 s window aligned to the clock (x.000 to x.999);
 * - `tokenBucket`: a bucket of `burst` tokens refilled at `perSecond`; punishes bursts;
 * - `perMinute`: a quota of `perSecond` x 60 per minute window aligned to the clock (the window can be
 *   shortened with `quotaWindowMs`, scaling the quota with it, for a run that must meet it quickly).
 */
export type LimiterModel = 'sliding' | 'fixed' | 'tokenBucket' | 'perMinute';
export const LIMITER_MODELS: readonly LimiterModel[] = [
	'sliding',
	'fixed',
	'tokenBucket',
	'perMinute',
];

/**
 * The Retry-After a refusal carries: `seconds` (whole seconds until a request would pass, at least
 * 1), `none` (no header), or the hostile `zero`, `negative` (-1) and `pastDate` (an HTTP date a
 * minute ago).
 */
export type RetryAfterStyle = 'seconds' | 'none' | 'zero' | 'negative' | 'pastDate';
export const RETRY_AFTER_STYLES: readonly RetryAfterStyle[] = [
	'seconds',
	'none',
	'zero',
	'negative',
	'pastDate',
];

export interface LimiterSettings {
	model: LimiterModel;
	perSecond: number;
	/** Token bucket size (default 20). */
	burst?: number;
	retryAfter?: RetryAfterStyle;
	/** A limit that changes mid-run: `afterMs` after the first request, `perSecond` applies. */
	change?: { afterMs: number; perSecond: number };
	/** perMinute: the quota window (default 60,000 ms); the quota is `perSecond` x its seconds. */
	quotaWindowMs?: number;
}

/** A refusal: the Retry-After header to send (null: none) and the ms until a request would pass. */
export interface Refusal {
	retryAfter: string | null;
	waitMs: number;
}

export class Limiter {
	private firstAt: number | undefined;
	/** sliding: admitted times within the last second. */
	private admitted: number[] = [];
	/** fixed and perMinute: the current window's start and count. */
	private windowStart = -1;
	private windowCount = 0;
	/** tokenBucket. */
	private tokens: number;
	private refilledAt: number | undefined;

	constructor(readonly settings: LimiterSettings) {
		this.tokens = settings.burst ?? 20;
	}

	/** The limit in force at `now` (it may have changed mid-run). */
	perSecondAt(now: number): number {
		const { change } = this.settings;
		if (change && this.firstAt !== undefined && now - this.firstAt >= change.afterMs) {
			return change.perSecond;
		}
		return this.settings.perSecond;
	}

	/** null: admitted (and counted). Otherwise the refusal; refused requests use up nothing. */
	admit(now: number): Refusal | null {
		this.firstAt ??= now;
		const waitMs = this.waitBeforeAdmitting(now);
		if (waitMs <= 0) return null;
		return { retryAfter: this.retryAfterHeader(now, waitMs), waitMs };
	}

	/** 0 when the request is admitted now (and recorded); otherwise how long until one would be. */
	private waitBeforeAdmitting(now: number): number {
		const perSecond = this.perSecondAt(now);
		switch (this.settings.model) {
			case 'sliding': {
				this.admitted = this.admitted.filter((t) => now - t < 1000);
				if (this.admitted.length >= perSecond) return this.admitted[0] + 1000 - now;
				this.admitted.push(now);
				return 0;
			}
			case 'fixed':
				return this.windowWait(now, 1000, perSecond);
			case 'perMinute': {
				const windowMs = this.settings.quotaWindowMs ?? 60_000;
				return this.windowWait(now, windowMs, (perSecond * windowMs) / 1000);
			}
			case 'tokenBucket': {
				const burst = this.settings.burst ?? 20;
				if (this.refilledAt !== undefined) {
					this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) * perSecond) / 1000);
				}
				this.refilledAt = now;
				if (this.tokens >= 1) {
					this.tokens -= 1;
					return 0;
				}
				return Math.max(1, ((1 - this.tokens) * 1000) / perSecond);
			}
		}
	}

	private windowWait(now: number, windowMs: number, quota: number): number {
		const start = Math.floor(now / windowMs) * windowMs;
		if (start !== this.windowStart) {
			this.windowStart = start;
			this.windowCount = 0;
		}
		if (this.windowCount >= quota) return start + windowMs - now;
		this.windowCount += 1;
		return 0;
	}

	private retryAfterHeader(now: number, waitMs: number): string | null {
		switch (this.settings.retryAfter ?? 'seconds') {
			case 'seconds':
				return String(Math.max(1, Math.ceil(waitMs / 1000)));
			case 'none':
				return null;
			case 'zero':
				return '0';
			case 'negative':
				return '-1';
			case 'pastDate':
				return new Date(now - 60_000).toUTCString();
		}
	}
}

/** The most of `times` (ms) within any window of `windowMs`: how a limit is checked from outside. */
export function busiestWindow(times: number[], windowMs = 1000): number {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let last = 0, first = 0; last < sorted.length; last++) {
		while (sorted[last] - sorted[first] >= windowMs) first++;
		most = Math.max(most, last - first + 1);
	}
	return most;
}
