/**
 * Decides when each request may start. The API documents no rate limit, and gateways limit in
 * different ways (sliding or fixed windows, token buckets that punish bursts, per-minute quotas), so
 * the pacer assumes no model. It spaces requests evenly, never in bursts, and adapts the spacing the
 * way TCP and gRPC's client-side throttling do (AIMD):
 * - no limit is assumed until the service refuses a call (429);
 * - on a 429, the rate drops to a fraction of what the service had just accepted (multiplicative
 *   decrease), at most once per second, since calls already under way were sent at the old rate
 *   (in a run younger than a second under the user's own limit, what was accepted is scaled to the
 *   time there was: a guess that the next 429 may correct at once);
 * - after a quiet second with no 429, the rate creeps up again (additive increase), quickly back to
 *   the last rate known to pass, slowly beyond it, so a limit that rises is found again; after 2 s
 *   with no 429 at all, the limit is taken as stale and searched for every quarter second (another
 *   worker pacing the same account may have stopped);
 * - if every caller is refused again right after a small decrease, the rate is cut deeper at once
 *   (one second can count up to twice a fixed window's limit, and a pacer that believes it stalls
 *   every caller near each window's end);
 * - the adaptive spacing counts from when each call was due, not from when a late timer let it go,
 *   so the small delays of a busy process do not add up into a slower rate;
 * - a requests-per-second limit the user set is never exceeded: two starts are never closer than
 *   its interval; a share of it (a campaign worker's part, account-pacers.ts) counts from due times
 *   like the adaptive rate, making up a few late starts, never closer than the whole limit's gap;
 * - with several callers in parallel, starts are also spread a fraction of a round trip apart, so
 *   answers do not arrive (and queue for the CPU) in bursts;
 * - when the service asks for a long wait (more than a second: a quota, not a rate), everyone waits.
 */
import type { Sleep } from './retry';

export interface PacerOptions {
	/** 0 or absent: no limit of its own. */
	requestsPerSecond?: number;
	/** How many calls run at the same time (the node's "Items in Parallel"); 1 or absent: no spread. */
	parallelCalls?: number;
	now?: () => number;
	/**
	 * Waits `ms` (under a millisecond) in place, holding the process: inside n8n, precise-clock.ts's
	 * `waitInPlace`. Without it, such a wait takes a timer, which lasts a millisecond or more.
	 */
	waitBriefly?: (ms: number) => void;
}

/**
 * What a caller of the pacer uses: its own turns, and what its calls tell the pacer. A caller
 * sharing the pacer waits in its execution's turn unless it passes one (READ_TURN).
 */
export type PacerTurns = Pick<Pacer, 'wait' | 'finished' | 'pause'>;

/**
 * The turn of a call that changes nothing (a listing of senders or templates): ahead of every
 * campaign batch waiting its turn. A worker's next batch checks its items against the template
 * listing before its first send; when the listing it kept had run out (Keep Listings, 60 s), the
 * request for a fresh one waited behind every send of the batch before it, and the worker sent
 * nothing for about 0.2 s after that batch's last send, once a minute on each worker (the campaign
 * bench with the pacer's starts logged, 2026-11-30).
 */
export const READ_TURN = 0;

/** A call's start, handed back to `finished` when its answer (or failure) is in. */
export type CallTicket = {
	startedAt: number;
	/** Started to make up for a hold under a share (see SHARE_WINDOW_MS). */
	madeUp?: boolean;
};

/** What a finished call tells the pacer. */
export type CallOutcome = 'answered' | 'rateLimited' | 'noAnswer';

/** On a 429, the new rate is this share of the rate the service had been accepting. */
export const DECREASE_FACTOR = 0.95;
/** The least time between two decreases: a limiter's window is commonly a second. */
export const DECREASE_GAP_MS = 1000;
/**
 * How long without a 429 before the rate goes up a step: long once a decrease has measured the
 * limit over a whole second of paced sending; short while the only measure is an opening burst
 * (which says little: a token bucket passes a small burst at once, then far fewer per second).
 */
export const QUIET_MS = 1000;
export const DISCOVERY_QUIET_MS = 250;
/**
 * Past this multiple of the last limit measured with no 429 since, that measure is stale (the limit
 * rose, or another process pacing the same account stopped sending): the search goes on at the
 * discovery pace. Queue-mode workers each pace their own share of one account; when one worker's
 * executions end, the other had been climbing back from its share at 1 s a step, and ran at half
 * the limit for 2 to 5 s (queue suite, token bucket: up to 1.27 x the ideal time).
 */
export const STALE_LIMIT_FACTOR = 1.1;
/**
 * A limit with no refusal for this long is stale too, however close the rate is to it: a worker
 * whose partner stopped was creeping back at 2 % a second from its share (a third of the limit,
 * say) and took 3 to 5 s to pass 1.1 x that share (queue mode on the virtual clock, bench:pacing:
 * 2 s of the 2.3 to 3 s lost per run went in that tail). A pacer alone near the limit is refused
 * every 2 to 4 s anyway. Shorter waits (1.5, 1.75 s) searched into fixed windows often enough to
 * stall them (one process: up to 1.25 x); see docs/performance.md, "Queue mode on the virtual clock".
 */
export const STALE_AFTER_MS = 2000;
/** Below the last rate known to pass, climb back by this factor per quiet period. */
export const RECOVERY_FACTOR = 1.5;
/**
 * Beyond it, the first step up is this share of the rate; each further quiet period doubles the
 * step, so a limit far above (or one that was raised) is found in seconds, while the first steps
 * stay small enough not to overshoot the limit just found.
 */
export const PROBE_SHARE = 0.02;
/** A decrease to at least this share of the rate before it is gentle: it measured no lower limit. */
export const GENTLE_DECREASE_SHARE = 0.9;
/** A second stall in a row after a gentle decrease cuts the rate to this share of what it was. */
export const STALL_FACTOR = 0.8;
/**
 * Under a share of a larger limit (a campaign worker's part), a refusal this long after the last
 * decrease lowers the rate to no less than DECREASE_FACTOR x the share: a process within its share,
 * refused, was refused for a moment when the processes' requests reached the gateway bunched (a
 * request leaves a busy process later than it started), not for a lower limit. Measured over the
 * second such a moment spoilt, the rate fell to 204-212 of a share of 245 and stayed under it for
 * seconds (the campaign bench with each worker's pacer logged, 2026-12-01: about 0.9 s of the
 * campaign); with the floor, 100,000 sends took 209.3-210.0 s against 210.1-210.4 s (decision
 * 0024). A refusal again sooner measures what was accepted, as before, and so does a gateway of
 * fixed windows, which refuses a little every few seconds (with 2 s here: 1.07 x on the virtual
 * clock, against 1.03 x).
 */
const SHARE_FLOOR_AFTER_MS = 5 * DECREASE_GAP_MS;
/**
 * No floor either this long after a decrease measured less than the share: the account's limit is
 * under the shares (set above what it allows), and a floor would bring back a second of refusals
 * each time SHARE_FLOOR_AFTER_MS passed without one.
 */
const SHARE_FLOOR_BLOCKED_MS = 30_000;
/** Never slower than this, whatever the refusals: a quota's window ends some time. */
export const MIN_RATE = 1;
/** Waits the service asks for longer than this are a quota or a window: every caller holds back. */
export const SHARED_PAUSE_MS = 1000;
/**
 * How many intervals late starts may make up under a share of a larger limit (see `nextStart`):
 * enough for a busy process's late timers, and after a longer hold (a node holding the process)
 * no more than this many starts come early, at the whole limit's gap.
 */
const SHARE_CATCH_UP = 4;
/**
 * Under a share, a process held by other work (n8n's nodes of its other batch: up to 217 ms at a
 * time in the campaign bench) makes up the starts it missed, owing up to two windows of them, while
 * its own starts in any window this long never pass the share: with every process on its share, no
 * window of the account passes the whole limit (decision 0016). Made up for only 4 intervals, those
 * holds cost the campaign bench 12 % of its rate (428 a second of 490), the virtual clock 1.31 x.
 */
const SHARE_WINDOW_MS = 1000;
/**
 * After the gateway refuses a start made up for a hold, none is made up for this long, twice as long
 * after each refusal (up to MADE_UP_PAUSE_MAX_MS), and half as long again after each hold made up
 * in full: a gateway with a window lets most through, one with a small burst (a token bucket) soon
 * sees none.
 */
const MADE_UP_PAUSE_MS = 1000;
const MADE_UP_PAUSE_MAX_MS = 64_000;
/** Refusals of starts this soon after one made up: the bucket it emptied, not the rate. */
const MADE_UP_AFTERMATH_MS = 100;
/** The spread uses this share of round trip / parallel calls, leaving headroom for jitter. */
const SPREAD_SHARE = 0.9;
/** Never spread calls further apart than this, whatever a slow call measured. */
const MAX_SPREAD_MS = 100;
/**
 * How many spread intervals late starts may make up: a timer fires late in a busy process (by a
 * millisecond or more, against a spread of 1 to 3 ms), and counted from each actual start, that
 * lateness added up into a slower rate (2,000 sends, 10 in parallel at 20 ms: 5.9 s where the
 * spread alone allows 4.4 s). A few intervals cover late timers; after a longer gap nothing is owed.
 */
const SPREAD_CATCH_UP = 4;
const ROUND_TRIP_SAMPLES = 31;
/** The longest a decrease waits for earlier calls to answer (see `noteRefusal`). */
const COUNT_WAIT_MAX_MS = 1000;
const ACCEPTED_STARTS_KEPT = 4096;
/**
 * The longest wait done in place (`waitBriefly`) for a start under Max Requests per Second. A timer
 * may end a little early (libuv reads a coarse clock), and the one set for the remainder then lasts
 * a millisecond or more: under the whole interval kept between two starts, that lateness is never
 * made up (at 245 a second in a lightly loaded process, 220.1 (217.7–222.5) went out; waiting the
 * remainder in place, 226.6 (225.2–229.2): npm run bench:pacing-wake, 5 runs each; in a campaign's
 * busy workers, 211 and 228). Under a millisecond, holding the process costs less than the timer
 * would (about 1.6 % of its time at 245 a second).
 */
export const BRIEF_WAIT_MAX_MS = 1;

export class Pacer {
	private lastStartAt = -Infinity;
	/** When the first call started: a measure over the second before a refusal needs a second. */
	private firstStartAt = Infinity;
	/** The due time of the last start under the adaptive rate (see `nextStart`). */
	private adaptiveDueBase = -Infinity;
	/** The due time of the last start under the spread (see `nextStart`). */
	private spreadDueBase = -Infinity;
	/** Callers waiting for a start, in the order they get one (see `wait`). */
	private readonly waiting: Waiter[] = [];
	private pumping = false;
	private pausedUntil = 0;
	/** The user's own limit as an interval (0: none); executions sharing the pacer may change it. */
	private limitIntervalMs: number;
	/**
	 * When the limit above is a share of a larger one (a campaign's worker, `setRequestsPerSecond`'s
	 * `whole`): that whole limit as an interval, kept between any two starts, while the share counts
	 * from due times (see `nextStart`). 0: the limit is the user's own, kept whole.
	 */
	private wholeIntervalMs = 0;
	/** The due time of the last start under a share (see `nextStart`). */
	private shareDueBase = -Infinity;
	/** Whether the last start under a share was making up for a hold (see `nextStart`). */
	private shareBehind = false;
	/** Starts under a share in the last SHARE_WINDOW_MS, oldest first, from `shareStartsHead` on. */
	private shareStarts: number[] = [];
	private shareStartsHead = 0;
	/** Until when no start is made up for a hold, and how long the next such pause lasts. */
	private madeUpPausedUntil = -Infinity;
	private madeUpPauseMs = MADE_UP_PAUSE_MS;
	/** When the last start made up for a hold began. */
	private lastMadeUpAt = -Infinity;
	/** The adaptive rate in requests per second; undefined until the first 429. */
	private rate: number | undefined;
	/** The last rate the service was seen to accept, the target of a quick recovery. */
	private knownGoodRate = 0;
	/** The rate the service was accepting when it last refused: the limit, as far as we know. */
	private lastLimit = 0;
	private lastDecreaseAt = -Infinity;
	/** When a decrease under a share last measured less than the share (see SHARE_FLOOR_BLOCKED_MS). */
	private lastMeasuredUnderShareAt = -Infinity;
	/** Whether the last decrease scaled a count of less than a second (`scaledToRunAge`). */
	private lastDecreaseGuessed = false;
	private previousDecreaseAt = -Infinity;
	/** When the service last refused a call, whether or not that refusal lowered the rate. */
	private lastRefusalAt = -Infinity;
	/** Refusals since the last accepted call, and when they last added up to every caller. */
	private refusedInARow = 0;
	private lastStallAt = -Infinity;
	/** Whether the last decrease was by little, its measure saying no more than what was sent. */
	private gentleDecrease = false;
	private lastChangeAt = -Infinity;
	private probeStep = 0;
	/** When the adaptive rate was first set; a decrease a second after it measured paced sending. */
	private pacedSince = Infinity;
	private limitMeasured = false;
	/** Calls started and not yet finished. */
	private readonly inFlight = new Set<CallTicket>();
	/** The earliest refused start that may lower the rate, waiting for the calls before it. */
	private pendingRefusal: { startedAt: number; seenAt: number } | undefined;
	private parallelCalls: number;
	private readonly now: () => number;
	private readonly waitBriefly: ((ms: number) => void) | undefined;
	/** Recent round trips, for the spread. */
	private readonly roundTrips = new RecentValues(ROUND_TRIP_SAMPLES);
	private spreadMs = 0;
	/** Start times of recent calls the service accepted, to measure the rate it accepts. */
	private readonly acceptedStarts = new RecentValues(ACCEPTED_STARTS_KEPT);

	constructor(
		private readonly sleep: Sleep,
		options: PacerOptions = {},
	) {
		const rps = options.requestsPerSecond;
		this.limitIntervalMs = rps && rps > 0 ? 1000 / rps : 0;
		this.parallelCalls = Math.max(1, Math.floor(options.parallelCalls ?? 1));
		this.now = options.now ?? Date.now;
		this.waitBriefly = options.waitBriefly;
	}

	/**
	 * The user's own limit now (0 or absent: none): executions of one account sharing this pacer
	 * (account-pacers.ts) each bring theirs, and the pacer keeps what they allow together.
	 */
	setRequestsPerSecond(requestsPerSecond: number | undefined, whole?: number): void {
		this.limitIntervalMs =
			requestsPerSecond && requestsPerSecond > 0 ? 1000 / requestsPerSecond : 0;
		this.wholeIntervalMs =
			this.limitIntervalMs > 0 && whole !== undefined && whole > requestsPerSecond!
				? 1000 / whole
				: 0;
	}

	/**
	 * Calls in flight at most, now: executions sharing this pacer (account-pacers.ts) add theirs as
	 * they join and take them back as they leave.
	 */
	setParallelCalls(parallelCalls: number): void {
		const calls = Math.max(1, Math.floor(parallelCalls));
		if (calls === this.parallelCalls) return;
		this.parallelCalls = calls;
		if (calls <= 1) this.spreadMs = 0;
		else if (this.roundTrips.values.length > 0) this.recordSpread();
	}

	/** The spacing now in force between two starts, in ms. */
	get intervalMs(): number {
		return Math.max(this.limitIntervalMs, this.adaptiveIntervalMs, this.spreadMs);
	}

	/** The adaptive rate in requests per second, undefined while no 429 has been seen. */
	get adaptiveRate(): number | undefined {
		return this.rate;
	}

	/**
	 * Resolves when this caller may send. Callers go one at a time, each a full interval after the
	 * previous start, the interval read when the start comes: slots are not booked ahead, so a change
	 * of rate applies to the very next call, not after every caller already queued. Each start goes
	 * to the waiting caller of lowest `turn` (in the order they came among equals), chosen when the
	 * start is due: executions sharing the pacer (account-pacers.ts) pass the order they joined in,
	 * so the first of a campaign's batches in a process sends first, and the next one, ready beside
	 * it, takes the whole rate the moment the first has no call waiting.
	 */
	async wait(turn = 0): Promise<CallTicket> {
		return await new Promise<CallTicket>((resolve, reject) => {
			const waiter: Waiter = { turn, resolve, reject };
			let at = this.waiting.length;
			while (at > 0 && this.waiting[at - 1].turn > turn) at -= 1;
			this.waiting.splice(at, 0, waiter);
			if (!this.pumping) void this.pump();
		});
	}

	/** Hands out starts while callers wait: each start, once due, to the first in line then. */
	private async pump(): Promise<void> {
		this.pumping = true;
		try {
			while (this.waiting.length > 0) {
				let ticket: CallTicket;
				try {
					ticket = await this.nextStart();
				} catch (error) {
					this.waiting.shift()?.reject(error);
					continue;
				}
				const first = this.waiting.shift();
				if (first) first.resolve(ticket);
				else this.inFlight.delete(ticket);
			}
		} finally {
			this.pumping = false;
		}
	}

	private async nextStart(): Promise<CallTicket> {
		/** The time this call's last timer was set for; undefined while it has not slept. */
		let sleptUntil: number | undefined;
		/** One wait in place per start at most: a clock that did not move falls back to a timer. */
		let waitedInPlace = false;
		/** Whether the last sleep was for a pause the service asked for, not the share's terms. */
		let sleptForOther = false;
		for (;;) {
			const now = this.now();
			const due = this.dueAt();
			if (due <= now) {
				this.lastStartAt = now;
				// A timer fires late in a busy process, a little every time. Counted from the actual
				// start, that lateness would add up call after call (2 ms late timers cut 100/s by a
				// sixth in the virtual-clock tests); counted from the due time, it does not. Only the
				// lateness of the timer this call slept on is owed, when the adaptive rate set it, and
				// less than one interval of it: a caller that did not wait (none was waiting), or one
				// that slept through a rise of the rate, owes nothing. Counted from the due time under
				// the new rate, a rise while a caller slept on the old interval let two calls start
				// 2-8 ms apart, which a gateway allowing no burst refused at every step up.
				const adaptiveDue = this.adaptiveDueBase + this.adaptiveIntervalMs;
				const dueFrom = sleptUntil === undefined ? undefined : Math.max(adaptiveDue, sleptUntil);
				const owed =
					dueFrom !== undefined && adaptiveDue >= due && now - dueFrom < this.adaptiveIntervalMs;
				this.adaptiveDueBase = owed ? dueFrom : now;
				// The spread the same way, owing a few intervals (SPREAD_CATCH_UP); after a longer gap
				// nothing is owed, so no burst follows a quiet moment.
				const spreadDue = this.spreadDueBase + this.spreadMs;
				const spreadOwed = now - spreadDue < SPREAD_CATCH_UP * this.spreadMs;
				this.spreadDueBase = spreadOwed ? spreadDue : now;
				// A share of a larger limit the same way: a worker's two campaign batches keep one
				// Node.js process busy, and every start a little late cost its share for good (191 a
				// second of 245 in the campaign bench). The other workers send beside it anyway, so
				// no gateway sees this process's gaps alone; the whole limit's gap still holds.
				// A caller that slept to its due time and woke late was held (the process busy with
				// other work), and so are the callers right behind it: together they make up to a
				// window of starts, which the window's count keeps within the share (`dueAt`). A
				// caller that did not sleep, after a quiet moment, owes only a few intervals, so no
				// burst follows a pause in the sending.
				// What a pause the service asked for held back is not owed: the schedule goes on
				// from when the pause ended.
				const shareDue =
					sleptForOther && sleptUntil !== undefined
						? Math.max(this.shareDueBase + this.limitIntervalMs, sleptUntil)
						: this.shareDueBase + this.limitIntervalMs;
				if (sleptForOther) this.shareBehind = false;
				const late = now - shareDue;
				const held = sleptUntil !== undefined || this.shareBehind;
				const fewOwed = late < SHARE_CATCH_UP * this.limitIntervalMs;
				const madeUp =
					!fewOwed &&
					held &&
					late < 2 * SHARE_WINDOW_MS &&
					this.wholeIntervalMs > 0 &&
					now >= this.madeUpPausedUntil;
				this.shareDueBase = fewOwed || madeUp ? shareDue : now;
				const wasBehind = this.shareBehind;
				this.shareBehind = (fewOwed || madeUp) && late >= this.limitIntervalMs;
				if (wasBehind && !this.shareBehind && now >= this.madeUpPausedUntil)
					this.madeUpPauseMs = Math.max(MADE_UP_PAUSE_MS, this.madeUpPauseMs / 2);
				if (this.wholeIntervalMs > 0) this.noteShareStart(now);
				if (madeUp) this.lastMadeUpAt = now;
				const ticket: CallTicket = madeUp ? { startedAt: now, madeUp } : { startedAt: now };
				this.firstStartAt = Math.min(this.firstStartAt, now);
				this.inFlight.add(ticket);
				return ticket;
			}
			// Only the user's own limit loses a late start for good (the other spacings count from
			// their due time): its last fraction of a millisecond is waited in place.
			const remaining = due - now;
			if (
				this.waitBriefly !== undefined &&
				!waitedInPlace &&
				remaining <= BRIEF_WAIT_MAX_MS &&
				this.limitIntervalMs > 0 &&
				due === this.lastStartAt + this.hardIntervalMs
			) {
				waitedInPlace = true;
				this.waitBriefly(remaining);
				continue;
			}
			sleptUntil = due;
			// Held back by a pause the service asked for (Retry-After), not by the share's own pace:
			// the share owes nothing for that wait (see `nextStart`).
			sleptForOther =
				this.wholeIntervalMs > 0 && this.pausedUntil >= due && due > this.shareTermsDue();
			await this.sleep(remaining);
		}
	}

	/**
	 * When the next call may start: the user's own limit counts from the last actual start, so it is
	 * never exceeded; the adaptive rate and the spread count from their last due time.
	 */
	private dueAt(): number {
		return Math.max(
			this.wholeIntervalMs > 0 ? this.shareTermsDue() : this.lastStartAt + this.hardIntervalMs,
			this.adaptiveDueBase + this.adaptiveIntervalMs,
			this.spreadDueBase + this.spreadMs,
			this.pausedUntil,
		);
	}

	/**
	 * Under a share (`wholeIntervalMs` > 0): when the share alone would let the next call start, by
	 * the whole limit's gap, the share's pace and its window.
	 */
	private shareTermsDue(): number {
		return Math.max(
			this.lastStartAt + this.hardIntervalMs,
			this.shareDueBase + this.limitIntervalMs,
			this.shareWindowDue(),
		);
	}

	/** Under a share: when the window's count lets one more start (see SHARE_WINDOW_MS). */
	private shareWindowDue(): number {
		const quota = Math.max(1, Math.floor(SHARE_WINDOW_MS / this.limitIntervalMs + 1e-6));
		const count = this.shareStarts.length - this.shareStartsHead;
		if (count < quota) return -Infinity;
		return this.shareStarts[this.shareStarts.length - quota] + SHARE_WINDOW_MS;
	}

	private noteShareStart(now: number): void {
		this.shareStarts.push(now);
		while (this.shareStarts[this.shareStartsHead] <= now - SHARE_WINDOW_MS)
			this.shareStartsHead += 1;
		// Dropped from the front now and then, not on every start.
		if (this.shareStartsHead > 1024 && this.shareStartsHead * 2 > this.shareStarts.length) {
			this.shareStarts = this.shareStarts.slice(this.shareStartsHead);
			this.shareStartsHead = 0;
		}
	}

	/** The gap kept from the last actual start: the user's limit, or the whole one under a share. */
	private get hardIntervalMs(): number {
		return this.wholeIntervalMs > 0 ? this.wholeIntervalMs : this.limitIntervalMs;
	}

	private get adaptiveIntervalMs(): number {
		return this.rate === undefined ? 0 : 1000 / this.rate;
	}

	/** Reports how a call that started with `ticket` ended. */
	finished(ticket: CallTicket, outcome: CallOutcome): void {
		this.inFlight.delete(ticket);
		if (
			outcome === 'rateLimited' &&
			(ticket.madeUp || ticket.startedAt - this.lastMadeUpAt < MADE_UP_AFTERMATH_MS)
		) {
			// The gateway keeps no window for what a held process missed (a token bucket with a
			// small burst): nothing is made up for a while, and the rate stays as it was, since the
			// starts made up, not the rate, were refused.
			const now = this.now();
			this.lastRefusalAt = now;
			if (now >= this.madeUpPausedUntil) {
				this.madeUpPausedUntil = now + this.madeUpPauseMs;
				this.madeUpPauseMs = Math.min(MADE_UP_PAUSE_MAX_MS, this.madeUpPauseMs * 2);
			}
			// What is still owed is forgiven: the schedule starts again from now.
			this.shareDueBase = Math.max(this.shareDueBase, now - this.limitIntervalMs);
			this.shareBehind = false;
			return;
		}
		if (outcome === 'rateLimited') {
			this.lastRefusalAt = this.now();
			this.noteRefusal(ticket.startedAt);
			this.decreaseOnceCounted();
			this.countRefusal();
			return;
		}
		if (outcome === 'answered') {
			this.refusedInARow = 0;
			this.acceptedStarts.add(ticket.startedAt);
			this.recordRoundTrip(this.now() - ticket.startedAt);
			this.increase();
		}
		this.decreaseOnceCounted();
	}

	/**
	 * A refusal that can lower the rate waits for the calls started before it: a gateway answers a
	 * 429 sooner than a send, and answers cross on the way, so when the first 429 comes the calls
	 * accepted just before it may not have answered yet. Counted then, an opening of 20 accepted
	 * and 30 refused measured 1 a second and crawled up from there for 4 s (virtual clock, timers
	 * late by 0-1 ms at random).
	 */
	private noteRefusal(startedAt: number): void {
		const now = this.now();
		// Calls sent before the last decrease, or within a second of it, say nothing new; unless that
		// decrease measured less than a second, so a refusal right after it corrects the guess.
		if (startedAt < this.lastDecreaseAt) return;
		if (!this.lastDecreaseGuessed && now - this.lastDecreaseAt < DECREASE_GAP_MS) return;
		const pending = this.pendingRefusal;
		if (pending === undefined || startedAt < pending.startedAt)
			this.pendingRefusal = { startedAt, seenAt: pending?.seenAt ?? now };
	}

	/** Whether a call started at or before `at` has not finished yet. */
	private startedInFlightBy(at: number): boolean {
		for (const call of this.inFlight) if (call.startedAt <= at) return true;
		return false;
	}

	/** Applies a pending refusal's decrease once the calls started before it have answered. */
	private decreaseOnceCounted(): void {
		const pending = this.pendingRefusal;
		if (pending === undefined) return;
		// A call that never answers does not hold the decrease back for long.
		if (
			this.startedInFlightBy(pending.startedAt) &&
			this.now() - pending.seenAt < COUNT_WAIT_MAX_MS
		)
			return;
		this.pendingRefusal = undefined;
		this.decrease(pending.startedAt);
	}

	/**
	 * The service asked a refused call to wait `ms`. Only that call waits, unless the wait is long:
	 * then the limit is a quota or window that refuses everyone until it ends.
	 */
	pause(ms: number): void {
		if (ms <= SHARED_PAUSE_MS) return;
		this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
	}

	/**
	 * A call started at `refusedAt` was refused: slow down to a share of what was being accepted.
	 * Reached only through `noteRefusal`, which let through only refusals that say something new.
	 */
	private decrease(refusedAt: number): void {
		const now = this.now();
		const counted = this.acceptedRate(refusedAt);
		const measured = this.scaledToRunAge(counted, refusedAt);
		const accepted = this.withinShareFloor(measured, now);
		this.lastDecreaseGuessed = measured !== counted;
		// Nothing accepted yet, so nothing to measure: the refused call's own backoff does the waiting.
		if (accepted === 0 && this.rate === undefined) return;
		if (refusedAt - this.pacedSince >= 1000) this.limitMeasured = true;
		this.pacedSince = Math.min(this.pacedSince, now);
		if (accepted > 0) {
			this.knownGoodRate = DECREASE_FACTOR * accepted;
			this.lastLimit = accepted;
		}
		const rateBefore = this.rate;
		const base =
			this.rate === undefined ? accepted : accepted > 0 ? Math.min(this.rate, accepted) : this.rate;
		const rate = this.slowTo(DECREASE_FACTOR * base, now);
		this.gentleDecrease = rateBefore !== undefined && rate >= GENTLE_DECREASE_SHARE * rateBefore;
		this.previousDecreaseAt = this.lastDecreaseAt;
		this.lastDecreaseAt = now;
	}

	/**
	 * What a refusal measured, raised to this process's share when it sent less than its share and
	 * no decrease came in the last SHARE_FLOOR_AFTER_MS (see there). A measure left under the share
	 * is noted, and blocks the floor for SHARE_FLOOR_BLOCKED_MS.
	 */
	private withinShareFloor(accepted: number, now: number): number {
		// Nothing accepted yet measures nothing, floor or not (see `decrease`).
		if (this.wholeIntervalMs === 0 || this.limitIntervalMs === 0 || accepted === 0) return accepted;
		const share = 1000 / this.limitIntervalMs;
		if (accepted >= share) return accepted;
		if (
			now - this.lastDecreaseAt < SHARE_FLOOR_AFTER_MS ||
			now - this.lastMeasuredUnderShareAt < SHARE_FLOOR_BLOCKED_MS
		) {
			this.lastMeasuredUnderShareAt = now;
			return accepted;
		}
		return share;
	}

	/** Sets a lower rate (never under MIN_RATE) and restarts the probing from it. */
	private slowTo(rate: number, now: number): number {
		this.rate = Math.max(MIN_RATE, rate);
		this.probeStep = PROBE_SHARE * this.rate;
		this.lastChangeAt = now;
		return this.rate;
	}

	/**
	 * Every caller refused in a row, each now waiting out its Retry-After: a stall. Once is a limit
	 * met (or lowered); a stall again after the decrease that followed means that decrease was far
	 * too gentle, as when one second counted up to twice a fixed window's limit: cut deeper, or the
	 * run goes on stalling every other second.
	 */
	private countRefusal(): void {
		this.refusedInARow += 1;
		if (this.refusedInARow !== this.parallelCalls || this.rate === undefined) return;
		const stalledAgain =
			this.lastStallAt >= this.previousDecreaseAt && this.lastStallAt > -Infinity;
		this.lastStallAt = this.now();
		// A decrease that measured a much lower accepted rate has already cut deep: no more.
		if (!stalledAgain || !this.gentleDecrease) return;
		const rate = this.slowTo(STALL_FACTOR * this.rate, this.now());
		this.knownGoodRate = Math.min(this.knownGoodRate, rate);
	}

	/** After a quiet period, go faster: quickly up to the last rate known to pass, then slowly. */
	private increase(): void {
		const now = this.now();
		if (this.rate === undefined) return;
		const stale =
			this.rate > STALE_LIMIT_FACTOR * this.lastLimit || now - this.lastRefusalAt >= STALE_AFTER_MS;
		const quietMs = this.limitMeasured && !stale ? QUIET_MS : DISCOVERY_QUIET_MS;
		if (now - this.lastChangeAt < quietMs) return;
		if (this.rate < this.knownGoodRate) {
			this.rate = Math.min(this.knownGoodRate, this.rate * RECOVERY_FACTOR);
		} else {
			this.rate += Math.max(MIN_RATE, this.probeStep);
			// Near the limit just found, creep; past it, the limit has risen: speed up the search.
			if (this.rate > this.lastLimit) this.probeStep *= 2;
		}
		this.lastChangeAt = now;
		// Far above the user's own limit, which governs anyway: nothing left to adapt.
		if (this.limitIntervalMs > 0 && 1000 / this.rate < this.limitIntervalMs / 2)
			this.rate = undefined;
	}

	/** Calls per second the service accepted in the second before `at`. */
	private acceptedRate(at: number): number {
		return this.acceptedStarts.values.filter((t) => t <= at && at - t < 1000).length;
	}

	/**
	 * Under the user's own limit the calls were paced from the first, so in a run younger than a
	 * second a count of accepted calls is scaled to the time there was, up to that limit: counted over
	 * a whole second, the 5 calls accepted before a 429 early in the run measured 5 a second, and the
	 * run crawled back up for 3 s (real n8n, a gateway allowing no burst, the setting at 90). It is a
	 * guess (a window's count filled early says the opposite), so the next refusal may correct it at
	 * once (`noteRefusal`).
	 */
	private scaledToRunAge(count: number, at: number): number {
		const age = at - this.firstStartAt;
		if (this.limitIntervalMs === 0 || this.rate !== undefined || !(age < 1000)) return count;
		const limit = 1000 / this.limitIntervalMs;
		return Math.min(limit, (count * 1000) / Math.max(age, this.limitIntervalMs));
	}

	private recordRoundTrip(ms: number): void {
		if (this.parallelCalls <= 1) return;
		this.roundTrips.add(Math.max(0, ms));
		this.recordSpread();
	}

	private recordSpread(): void {
		const sorted = [...this.roundTrips.values].sort((a, b) => a - b);
		const median = sorted[Math.floor(sorted.length / 2)];
		this.spreadMs = Math.min(MAX_SPREAD_MS, (SPREAD_SHARE * median) / this.parallelCalls);
	}
}

/** A caller waiting for its start. */
interface Waiter {
	turn: number;
	resolve: (ticket: CallTicket) => void;
	reject: (error: unknown) => void;
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
