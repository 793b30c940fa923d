// A campaign in queue mode on the virtual clock: workers (n8n processes) take batches from one
// queue, `concurrency` at a time (n8n worker --concurrency), each batch an execution that joins its
// process's account pacer (account-pacers.ts), sends its items through the client's real ApiCaller
// and leaves; a worker can die mid-batch. The same code as in n8n, against a sandbox limiter model.
import { AccountPacers } from '../../nodes/SmsLeopard/client/http/account-pacers';
import { ApiCaller } from '../../nodes/SmsLeopard/client/http/api-caller';
import { Pacer } from '../../nodes/SmsLeopard/client/http/pacing';
import { DEFAULT_RETRY } from '../../nodes/SmsLeopard/client/http/retry';
import type { Transport } from '../../nodes/SmsLeopard/client/http/transport';
import { Limiter, type LimiterSettings } from '../sandbox/limiters';
import { VirtualClock, seededRandom, sentItem } from './limiter-simulation';

export interface CampaignSimulation {
	limiter: LimiterSettings;
	workers: number;
	batches: number;
	batchSize: number;
	/** Items in Parallel of the batch's send node. */
	parallel: number;
	latencyMs: number;
	/**
	 * Max Requests per Second of the batch's send node: a number, the same for every batch (each
	 * worker's fixed share, as before), or the account's `limit` shared by the batches sending: each
	 * batch, as it starts, sets Executions Sharing the Limit to the batches sending then (the shipped
	 * batch reads them from its data table; here they are counted exactly, a dead worker's until
	 * `deadCountedMs` after its kill).
	 */
	requestsPerSecond: number | { limit: number };
	/** Batches each worker runs at once (n8n worker --concurrency; default 1). */
	concurrency?: number;
	/** From a worker's batch ending to its next one sending (n8n's job hand-over, the data table). */
	handOverMs: number;
	/**
	 * Of the hand-over, how long before its sends and after them a batch already (still) counts as
	 * sending in the record (Take Batch to Record Outcome); default 0.
	 */
	countedBeforeMs?: number;
	countedAfterMs?: number;
	/**
	 * What n8n's nodes do in that time, as CPU that holds the worker's whole process (no timer of
	 * its pacer fires, no answer is read, until each piece ends): the pieces before a batch's sends
	 * and after them, in ms. When given, they are the counted time instead of countedBeforeMs and
	 * countedAfterMs (a plain wait, during which the process's other batch goes on sending).
	 */
	heldBeforeMs?: number[];
	heldAfterMs?: number[];
	/** Worker 0 dies at this time (ms): it starts no further call and takes no further batch. */
	killAtMs?: number;
	/** How long the killed worker's batch still counts as sending (the shipped rule: its expected time). */
	deadCountedMs?: number;
	/** When each worker takes its first batch (default 0 for all): one plans the campaign first. */
	firstBatchAtMs?: (worker: number) => number;
	/** Virtual time at the start (a fixed window's phase). */
	startAt?: number;
	/** How late every timer fires, and up to how much later (seeded), as in a busy n8n. */
	timerLateMs?: number;
	timerJitterMs?: number;
}

export interface CampaignResult {
	elapsedMs: number;
	/** Items the service accepted (each once), and items accepted twice (must stay 0). */
	sent: number;
	doubles: number;
	failed: number;
	requests: number;
	refused: number;
	/** Items of the killed worker's batch it never sent (the batch left "sending"). */
	lost: number;
	/** Every accepted send: when it started (ms after the start) and which worker sent it. */
	acceptedLog: Array<{ at: number; worker: number }>;
	refusedAt: number[];
	/** Batches each worker sent. */
	batchesOf: number[];
}

export async function simulateCampaign(sim: CampaignSimulation): Promise<CampaignResult> {
	const clock = new VirtualClock(sim.startAt ?? 0, sim.timerLateMs ?? 0, sim.timerJitterMs ?? 0);
	const begin = clock.now;
	const limiter = new Limiter(sim.limiter);
	const accepted = new Map<number, number>();
	const acceptedLog: CampaignResult['acceptedLog'] = [];
	const refusedAt: number[] = [];
	let requests = 0;
	let failed = 0;
	let lost = 0;
	/** Until when each worker's process is held by a node's CPU (see heldBeforeMs). */
	const heldUntil: number[] = Array.from({ length: sim.workers }, () => -Infinity);
	const whenFree = async (worker: number) => {
		while (clock.now < heldUntil[worker]) await clock.after(heldUntil[worker] - clock.now);
	};
	/** A node's piece of CPU: it waits for the process, then holds it. */
	const hold = async (worker: number, ms: number) => {
		await whenFree(worker);
		heldUntil[worker] = clock.now + ms;
		await clock.after(ms);
	};
	/** A timer of the worker's process: it fires late while the process is held. */
	const sleepOf =
		(worker: number) =>
		async (ms: number): Promise<void> => {
			await clock.sleep(ms);
			await whenFree(worker);
		};
	const transport = (worker: number): Transport => ({
		async request(request) {
			requests += 1;
			const item = Number(request.url.split('/').pop());
			const refusal = limiter.admit(clock.now);
			await clock.sleep(sim.latencyMs);
			// The answer is read once the process is free.
			await whenFree(worker);
			if (refusal) {
				refusedAt.push(clock.now - sim.latencyMs - begin);
				const headers = refusal.retryAfter === null ? {} : { 'retry-after': refusal.retryAfter };
				return { status: 429, headers, body: { message: 'rate limited' } };
			}
			accepted.set(item, (accepted.get(item) ?? 0) + 1);
			acceptedLog.push({ at: clock.now - sim.latencyMs - begin, worker });
			return { status: 200, headers: {}, body: { id: item } };
		},
	});
	const processes = Array.from({ length: sim.workers }, () => new AccountPacers());
	const dead = (worker: number) =>
		worker === 0 && sim.killAtMs !== undefined && clock.now - begin >= sim.killAtMs;
	let nextBatch = 0;
	const batchesOf = processes.map(() => 0);

	/** Batches sending now, by worker: a dead worker's batch counts until deadCountedMs. */
	const sending = new Map<number, number>();
	let killedBatches = 0;
	const countedSending = () => {
		const deadCounted =
			sim.killAtMs !== undefined && clock.now - begin < sim.killAtMs + (sim.deadCountedMs ?? 0);
		return sending.size + (deadCounted ? killedBatches : 0);
	};
	const limitOfBatch = () =>
		typeof sim.requestsPerSecond === 'number'
			? { limit: sim.requestsPerSecond, sharedBy: 1 }
			: { limit: sim.requestsPerSecond.limit, sharedBy: Math.max(1, countedSending()) };

	const sendBatch = async (worker: number, batch: number) => {
		sending.set(batch, worker);
		// Batches Sharing the Limit counts right after Take Batch, before the rest of the hand-over.
		const { limit, sharedBy } = limitOfBatch();
		if (sim.heldBeforeMs) for (const ms of sim.heldBeforeMs) await hold(worker, ms);
		else if (sim.countedBeforeMs) await clock.after(sim.countedBeforeMs);
		// As client.ts joins its account's pacer: this batch's share, and the limit it shares.
		const share = limit / sharedBy;
		const lease = processes[worker].join(
			'account',
			sim.parallel,
			(parallelCalls) =>
				new Pacer(sleepOf(worker), {
					requestsPerSecond: share,
					parallelCalls,
					now: () => clock.now,
				}),
			{ share, limit },
		);
		const caller = new ApiCaller({
			transport: transport(worker),
			chatUrl: 'https://chat.example.test',
			contactsUrl: 'https://api.example.test',
			sleep: sleepOf(worker),
			now: () => clock.now,
			retry: { ...DEFAULT_RETRY, maxTotalWaitMs: 300_000 },
			requestsPerSecond: share,
			parallelCalls: sim.parallel,
			pacer: lease.pacer,
		});
		let next = batch * sim.batchSize;
		const end = next + sim.batchSize;
		const slot = async () => {
			while (next < end) {
				if (dead(worker)) return;
				const item = next++;
				if (!(await sentItem(caller, item))) failed += 1;
			}
		};
		await Promise.all(Array.from({ length: sim.parallel }, slot));
		if (!dead(worker)) lease.leave();
		if (sim.heldAfterMs) for (const ms of sim.heldAfterMs) await hold(worker, ms);
		else if (sim.countedAfterMs) await clock.after(sim.countedAfterMs);
		sending.delete(batch);
		if (dead(worker)) {
			lost += end - next;
			killedBatches += 1;
		}
	};

	/** One of a worker's job slots: takes a batch, sends it, hands over, takes the next. */
	const jobSlot = async (index: number) => {
		while (nextBatch < sim.batches && !dead(index)) {
			const batch = nextBatch++;
			batchesOf[index] += 1;
			await sendBatch(index, batch);
			if (dead(index)) return;
			await clock.after(sim.handOverMs);
		}
	};
	const worker = async (index: number) => {
		const first = sim.firstBatchAtMs?.(index) ?? 0;
		if (first > 0) await clock.after(first);
		await Promise.all(
			Array.from({ length: sim.concurrency ?? 1 }, async () => await jobSlot(index)),
		);
	};

	// Seeded, so the retries' jitter is the same every run (as limiter-simulation.ts does).
	const realRandom = Math.random;
	Math.random = seededRandom(7);
	try {
		await clock.run(Promise.all(processes.map(async (_, index) => await worker(index))));
	} finally {
		Math.random = realRandom;
	}
	const lastAccepted = acceptedLog.reduce((last, send) => Math.max(last, send.at), 0);
	return {
		elapsedMs: lastAccepted + sim.latencyMs,
		sent: accepted.size,
		doubles: [...accepted.values()].filter((count) => count > 1).length,
		failed,
		requests,
		refused: refusedAt.length,
		lost,
		acceptedLog,
		refusedAt,
		batchesOf,
	};
}

/** Sends accepted from `from` to `to` ms, per second; `worker` counts only that worker's. */
export function rateBetween(
	result: CampaignResult,
	from: number,
	to: number,
	worker?: number,
): number {
	const sends = result.acceptedLog.filter(
		(send) => send.at >= from && send.at < to && (worker === undefined || send.worker === worker),
	).length;
	return (sends * 1000) / (to - from);
}
