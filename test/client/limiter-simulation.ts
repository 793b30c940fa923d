// Runs the client's real ApiCaller (pacer and retries) against a sandbox limiter model on a virtual
// clock: thousands of sends in milliseconds, the same result every run, no wall-clock assertions.
import { z } from 'zod';
import { ApiCaller } from '../../nodes/SmsLeopard/client/http/api-caller';
import { AccountPacers } from '../../nodes/SmsLeopard/client/http/account-pacers';
import { Pacer } from '../../nodes/SmsLeopard/client/http/pacing';
import { DEFAULT_RETRY } from '../../nodes/SmsLeopard/client/http/retry';
import type { Transport } from '../../nodes/SmsLeopard/client/http/transport';
import { Limiter, type LimiterSettings } from '../sandbox/limiters';
import { mulberry32 } from '../sandbox/faults';

/** Timers fire in time order; time jumps to the next timer once every promise has settled. */
export class VirtualClock {
	now = 0;
	private timers: { at: number; seq: number; fire: () => void }[] = [];
	private seq = 0;

	private readonly random = mulberry32(7);

	/**
	 * `lateMs`: every timer fires this much after its time, as timers do in a busy n8n process (a
	 * real run's event loop is never idle: items, answers, other callers). `jitterMs`: and up to this
	 * much more, differently each time (seeded), as in n8n, where a late start may be followed by one
	 * on time.
	 */
	constructor(
		start = 0,
		private readonly lateMs = 0,
		private readonly jitterMs = 0,
	) {
		this.now = start;
	}

	/** A timer of n8n's: fires `ms` from now, plus the clock's lateness. */
	readonly sleep = async (ms: number): Promise<void> => {
		const late = this.lateMs + (this.jitterMs > 0 ? this.jitterMs * this.random() : 0);
		await this.after(Math.max(0, ms) + late);
	};

	/** Resolves `ms` from now, exactly: a delay outside n8n's timers (the way to the gateway). */
	readonly after = async (ms: number): Promise<void> =>
		await new Promise<void>((fire) => {
			this.timers.push({ at: this.now + Math.max(0, ms), seq: this.seq++, fire });
		});

	/** Drives time until `work` settles. */
	async run<T>(work: Promise<T>): Promise<T> {
		let settled = false;
		work.then(
			() => (settled = true),
			() => (settled = true),
		);
		for (;;) {
			await new Promise((resolve) => setImmediate(resolve));
			if (settled) return await work;
			if (this.timers.length === 0) throw new Error('virtual clock: nothing left to wait for');
			this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
			const next = this.timers.shift()!;
			this.now = Math.max(this.now, next.at);
			next.fire();
		}
	}
}

/** mulberry32 (the sandbox's generator), so the retries' jitter is the same every run. */
export const seededRandom = mulberry32;

/** `share` of requests reach the gateway up to `ms` after their start, the rest up to `baseMs`. */
export interface ArrivalJitter {
	baseMs: number;
	share: number;
	ms: number;
}

export interface Simulation {
	limiter: LimiterSettings;
	sends: number;
	/** Items in Parallel. */
	parallel: number;
	/** Round trip of every request. */
	latencyMs: number;
	/** Max Requests per Second (0: none). */
	requestsPerSecond?: number;
	/** Max Wait on Rate Limit, per call. */
	maxWaitMs?: number;
	/** Virtual time at the start (a fixed window's phase). */
	startAt?: number;
	/** How late every timer fires (0: on time). */
	timerLateMs?: number;
	/** And up to this much later, differently for each timer (seeded). */
	timerJitterMs?: number;
	/**
	 * How a request's way to the gateway varies (seeded): `share` of requests arrive up to `ms` late,
	 * the rest up to `baseMs` late. In real n8n most requests arrive within a millisecond or two of
	 * their start, and a few several milliseconds late (a busy event loop, a new connection each),
	 * so two sent evenly can arrive close together; a gateway that allows no burst refuses the later.
	 */
	arrivalJitter?: ArrivalJitter;
	/**
	 * Executions running at once against the same account, each with `sends` and `parallel` of its
	 * own (default 1); `share` makes them pace through one account pacer, as executions of one n8n
	 * process do (account-pacers.ts), instead of each on its own.
	 */
	executions?: number;
	share?: boolean;
	/**
	 * n8n processes the executions are spread over, round-robin (default 1), as queue mode's workers:
	 * with `share`, executions pace together only within their process, each process on its own.
	 */
	processes?: number;
	/** Which process runs execution e (default e % processes): uneven shares, as 6 + 4. */
	processOf?: (execution: number) => number;
	/**
	 * When execution e starts, in ms after the first (default 0 for all). In the queue suite ten
	 * executions posted at once started over about two seconds: workers take jobs one at a time.
	 */
	startOf?: (execution: number) => number;
}

/**
 * How unevenly requests reach a gateway from n8n, fitted to real n8n 2.8.4 under a token bucket of
 * 1 at 100/s (BENCH_LIMITERS=tokenBucketNoBurst): with Max Requests per Second 95, 90 and 80 it
 * took 31.0, 30.2 and 31.0 s with 14, 14 and 8 x 429 (the server saw gaps of 7-9 ms after gaps of
 * 13-17 ms); this model gives 30.2, 30.3 and 31.3 s with 14, 12 and 10.
 */
export const N8N_ARRIVAL_JITTER: ArrivalJitter = { baseMs: 1, share: 0.02, ms: 8 };

export interface SimulationResult {
	elapsedMs: number;
	failed: number;
	requests: number;
	refused: number;
	/** Sends the service accepted more than once for one item: must stay 0. */
	doubles: number;
	/** Start times of every request, for rate checks. */
	starts: number[];
	/** Start times of the requests the service refused. */
	refusedAt: number[];
	/** When each process's last call ended, in ms after the start. */
	processDoneMs: number[];
	/** Every accepted send: when it started, and which execution sent it. */
	acceptedLog: Array<{ at: number; execution: number }>;
}

const sendAnswer = z.object({ id: z.number() });

/** Sends item `item` (its number in the path) through `caller`: whether it went out, retries and all. */
export async function sentItem(caller: ApiCaller, item: number): Promise<boolean> {
	try {
		await caller.call({
			operation: 'Send template',
			host: 'chat',
			method: 'POST',
			path: `/send/${item}`,
			idempotent: false,
			response: sendAnswer,
		});
		return true;
	} catch {
		return false;
	}
}

export async function simulate(sim: Simulation): Promise<SimulationResult> {
	const clock = new VirtualClock(sim.startAt ?? 0, sim.timerLateMs ?? 0, sim.timerJitterMs ?? 0);
	const limiter = new Limiter(sim.limiter);
	const accepted = new Map<number, number>();
	const starts: number[] = [];
	const refusedAt: number[] = [];
	const acceptedLog: SimulationResult['acceptedLog'] = [];
	const arrivalRandom = mulberry32(11);
	const arrivalDelay = () => {
		const jitter = sim.arrivalJitter;
		if (!jitter) return 0;
		return arrivalRandom() < jitter.share
			? jitter.ms * arrivalRandom()
			: jitter.baseMs * arrivalRandom();
	};
	const transport: Transport = {
		async request(request) {
			starts.push(clock.now);
			const item = Number(request.url.split('/').pop());
			const delay = arrivalDelay();
			if (delay > 0) await clock.after(delay);
			const refusal = limiter.admit(clock.now);
			await clock.sleep(sim.latencyMs);
			if (refusal) {
				refusedAt.push(clock.now - sim.latencyMs);
				const headers = refusal.retryAfter === null ? {} : { 'retry-after': refusal.retryAfter };
				return { status: 429, headers, body: { message: 'rate limited' } };
			}
			accepted.set(item, (accepted.get(item) ?? 0) + 1);
			acceptedLog.push({ at: clock.now - sim.latencyMs, execution: Math.floor(item / sim.sends) });
			return { status: 200, headers: {}, body: { id: item } };
		},
	};
	const executions = sim.executions ?? 1;
	const processes = Array.from(
		{ length: Math.max(1, sim.processes ?? 1) },
		() => new AccountPacers(),
	);
	const processOf = (execution: number) =>
		(sim.processOf?.(execution) ?? execution) % processes.length;
	// Each execution joins its process's account pacer when it starts, as in n8n.
	const callerOf = (execution: number) => {
		const pacers = processes[processOf(execution)];
		const lease = sim.share
			? pacers.join(
					'account',
					sim.parallel,
					(parallelCalls) =>
						new Pacer(clock.sleep, {
							requestsPerSecond: sim.requestsPerSecond,
							parallelCalls,
							now: () => clock.now,
						}),
					{ share: sim.requestsPerSecond ?? 0, limit: sim.requestsPerSecond ?? 0 },
				)
			: undefined;
		return new ApiCaller({
			transport,
			chatUrl: 'https://chat.example.test',
			contactsUrl: 'https://api.example.test',
			sleep: clock.sleep,
			now: () => clock.now,
			retry: { ...DEFAULT_RETRY, maxTotalWaitMs: sim.maxWaitMs ?? 300_000 },
			requestsPerSecond: sim.requestsPerSecond,
			parallelCalls: sim.parallel,
			pacer: lease?.pacer,
		});
	};
	let failed = 0;
	const begin = clock.now;
	const processDoneMs = processes.map(() => 0);
	// Each execution sends its own items: execution e has items e × sends to (e + 1) × sends - 1.
	const next = Array.from({ length: executions }, (_, execution) => execution * sim.sends);
	const worker = async (caller: ApiCaller, execution: number) => {
		while (next[execution] < (execution + 1) * sim.sends) {
			const item = next[execution]++;
			if (!(await sentItem(caller, item))) failed += 1;
		}
		const owner = processOf(execution);
		processDoneMs[owner] = Math.max(processDoneMs[owner], clock.now - begin);
	};
	const execution = async (index: number) => {
		const delay = sim.startOf?.(index) ?? 0;
		if (delay > 0) await clock.sleep(delay);
		const caller = callerOf(index);
		await Promise.all(
			Array.from({ length: sim.parallel }, async () => await worker(caller, index)),
		);
	};
	// Seeded, so the retries' jitter is the same every run. Swapped by hand, not with jest.spyOn,
	// so that the sweep benchmark (bench/pacing-sweep.ts) runs the same code outside jest.
	const realRandom = Math.random;
	Math.random = seededRandom(7);
	try {
		await clock.run(
			Promise.all(Array.from({ length: executions }, async (_, index) => await execution(index))),
		);
	} finally {
		Math.random = realRandom;
	}
	return {
		elapsedMs: clock.now - begin,
		failed,
		requests: starts.length,
		refused: refusedAt.length,
		refusedAt,
		doubles: [...accepted.values()].filter((count) => count > 1).length,
		starts,
		processDoneMs,
		acceptedLog,
	};
}

/**
 * Issue 26's "many executions, one account": 10 executions of 200 sends, 10 in parallel each, 20 ms
 * round trips, each sharing its process's account pacer. The shared-pacing tests and the queue-mode
 * sweep (bench/pacing-sweep.ts) run this one shape; they choose the limiter, the processes, where
 * and when each execution starts, and the clock.
 */
export const TEN_EXECUTIONS = 10;
export const SENDS_EACH = 200;

export async function simulateTenExecutions(
	options: Pick<
		Simulation,
		'limiter' | 'processes' | 'processOf' | 'startOf' | 'startAt' | 'timerLateMs'
	>,
): Promise<SimulationResult> {
	return await simulate({
		sends: SENDS_EACH,
		parallel: 10,
		executions: TEN_EXECUTIONS,
		share: true,
		latencyMs: 20,
		...options,
	});
}
