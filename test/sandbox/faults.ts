// Injected trouble: rate limiting, bursts of 429, random 500s, connection resets, slow answers,
// broken JSON and proxy pages. Deterministic (seeded RNG) so a failing test fails the same way every
// run. Each knob draws from its own stream, once per authorised request whatever the rates, so turning
// one knob does not shift which requests another knob hits.
import { Limiter, type LimiterSettings, type Refusal } from './limiters';
import type { FaultName, HostName, ResolvedOptions } from './types';

/** mulberry32: tiny, fast, good enough for choosing which requests fail or jitter. */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Faults decided before the handler runs: the request is never acted on. */
export type PreFault = Extract<FaultName, 'resetBeforeHandling' | 'failure' | 'wrongContentType'>;
/** Faults applied to the handler's answer: the request was acted on (a send is recorded as sent). */
export type AnswerFault = Extract<FaultName, 'resetAfterHandling' | 'malformedJson' | 'slow'>;

export interface FaultPlan {
	before?: PreFault;
	answer?: AnswerFault;
}

const STREAMS = ['reset', 'resetMode', 'slow', 'malformedJson', 'wrongContentType'] as const;
type Stream = (typeof STREAMS)[number];

export class Faults {
	/** One limiter per host, made again when a rate-limit option changes. */
	private limiters: Partial<Record<HostName, { key: string; limiter: Limiter }>> = {};
	private random: () => number;
	private streams!: Record<Stream, () => number>;

	constructor(private readonly options: ResolvedOptions) {
		this.random = mulberry32(options.seed);
		this.seedStreams();
	}

	private seedStreams(): void {
		// The failure stream keeps the plain seed (its sequence predates the other knobs); the others
		// are offset by multiples of the golden-ratio constant so they are independent of it.
		this.streams = Object.fromEntries(
			STREAMS.map((name, i) => [name, mulberry32(this.options.seed + (i + 1) * 0x9e3779b9)]),
		) as Record<Stream, () => number>;
	}

	reset(): void {
		this.limiters = {};
		this.random = mulberry32(this.options.seed);
		this.seedStreams();
	}

	/**
	 * `burst429`: while the counter is above zero, every request takes one off it and is refused with
	 * 429 (Retry-After: 1), whatever the rate limit. Burst requests do not occupy the rate window.
	 */
	takeBurst(): boolean {
		if (this.options.burst429 <= 0) return false;
		this.options.burst429 -= 1;
		return true;
	}

	/**
	 * The rate limit of a host, counted as `rateLimitModel` says (limiters.ts). Only admitted
	 * requests use up the limit (a client that keeps hammering while limited is not punished
	 * further). Returns the refusal (its Retry-After header, or null for none), otherwise null.
	 */
	admit(host: HostName, now: number): Refusal | null {
		const settings = this.limiterSettings();
		if (!settings) return null;
		const key = JSON.stringify(settings);
		let entry = this.limiters[host];
		if (entry?.key !== key) {
			entry = { key, limiter: new Limiter(settings) };
			this.limiters[host] = entry;
		}
		return entry.limiter.admit(now);
	}

	private limiterSettings(): LimiterSettings | undefined {
		const { options } = this;
		const perSecond = options.rateLimitPerSecond;
		if (perSecond === undefined || !(perSecond > 0)) return undefined;
		return {
			model: options.rateLimitModel,
			perSecond,
			burst: options.rateLimitBurst,
			retryAfter: options.rateLimitRetryAfter,
			change: options.rateLimitChange ?? undefined,
			quotaWindowMs: options.rateLimitQuotaWindowMs,
		};
	}

	/** Drawn once per authorised request, whatever the rate, so the sequence stays reproducible. */
	shouldFail(): boolean {
		const draw = this.random();
		return this.options.failureRate > 0 && draw < this.options.failureRate;
	}

	private hit(stream: Stream, rate: number): boolean {
		const draw = this.streams[stream]();
		return rate > 0 && draw < rate;
	}

	/**
	 * The fate of one authorised request. Every stream is drawn each time; when several knobs hit,
	 * the first of this order wins: reset before handling, 500, wrong content type, reset after
	 * handling, malformed JSON, slow.
	 */
	plan(): FaultPlan {
		const { options } = this;
		const fail = this.shouldFail();
		const reset = this.hit('reset', options.resetRate);
		const modeDraw = this.streams.resetMode();
		const wrongType = this.hit('wrongContentType', options.wrongContentTypeRate);
		const malformed = this.hit('malformedJson', options.malformedJsonRate);
		const slow = this.hit('slow', options.slowRate);
		const resetAfter =
			options.resetMode === 'afterHandling' || (options.resetMode === 'mixed' && modeDraw < 0.5);
		if (reset && !resetAfter) return { before: 'resetBeforeHandling' };
		if (fail) return { before: 'failure' };
		if (wrongType) return { before: 'wrongContentType' };
		if (reset) return { answer: 'resetAfterHandling' };
		if (malformed) return { answer: 'malformedJson' };
		if (slow) return { answer: 'slow' };
		return {};
	}
}
