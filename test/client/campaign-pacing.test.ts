// The account's limit sets a campaign's pace, whatever happens to the workers (issue 53). On the
// virtual clock (campaign-simulation.ts: the client's real pacers and retries, n8n's job hand-over),
// a campaign of 20 batches of 1,000 at 20 ms, 20 in parallel, an account allowing 500 a second, every
// batch set as the shipped batch workflow sets it: Max Requests per Second 495 (the account's limit,
// 1 % below) shared by the batches sending when it starts (Executions Sharing the Limit).
import { busiestWindow, type LimiterSettings } from '../sandbox/limiters';
import { type CampaignSimulation, rateBetween, simulateCampaign } from './campaign-simulation';

const LIMIT = 500;
const SETTING = 495;
const BATCHES = 20;
const BATCH_SIZE = 1000;

const LIMITERS: Array<[string, LimiterSettings]> = [
	['sliding 1 s window', { model: 'sliding', perSecond: LIMIT }],
	['fixed 1 s windows', { model: 'fixed', perSecond: LIMIT }],
	['token bucket, burst 20', { model: 'tokenBucket', perSecond: LIMIT, burst: 20 }],
];

const campaign = (limiter: LimiterSettings, extra: Partial<CampaignSimulation> = {}) =>
	simulateCampaign({
		limiter,
		workers: 2,
		batches: BATCHES,
		batchSize: BATCH_SIZE,
		parallel: 20,
		latencyMs: 20,
		requestsPerSecond: { limit: SETTING },
		// n8n's hand-over between a worker's batches: the record, the next job, Take Batch.
		handOverMs: 150,
		...extra,
	});

/** Time over what the sends alone take at the setting (sent / 495 a second). */
const overIdeal = (elapsedMs: number, sent: number) => elapsedMs / ((sent / SETTING) * 1000);

function everyoneOnce(result: Awaited<ReturnType<typeof simulateCampaign>>, lost = 0) {
	expect(result.failed).toBe(0);
	expect(result.doubles).toBe(0);
	expect(result.sent + result.lost).toBe(BATCHES * BATCH_SIZE);
	expect(result.lost).toBeLessThanOrEqual(lost);
}

/** Nobody failed or sent twice, within `bound` x the sends at the setting, under 1 in 100 refused. */
function pacedWithin(result: Awaited<ReturnType<typeof simulateCampaign>>, bound: number) {
	expect(result.failed).toBe(0);
	expect(result.doubles).toBe(0);
	expect(overIdeal(result.elapsedMs, result.sent)).toBeLessThanOrEqual(bound);
	expect(result.refused).toBeLessThan(0.01 * result.sent);
}

describe.each(LIMITERS)('a campaign sharing the account limit, %s', (_label, limiter) => {
	it('two workers: within 1.12 x the sends at the setting, under 1 in 100 refused, each sent once', async () => {
		const result = await campaign(limiter);
		everyoneOnce(result);
		expect(overIdeal(result.elapsedMs, result.sent)).toBeLessThanOrEqual(1.12);
		expect(result.refused).toBeLessThan(0.01 * result.sent);
		// Both workers sent: the limit was shared, not taken by one.
		expect(Math.min(...result.batchesOf)).toBeGreaterThanOrEqual(BATCHES / 2 - 2);
	});

	it('three workers, the same settings: within 1.12 x, under 1 in 100 refused', async () => {
		const result = await campaign(limiter, { workers: 3, batches: BATCHES + 1 });
		pacedWithin(result, 1.12);
	});

	it('a worker killed mid-batch: the other sends at the whole limit within 12 s, the campaign within 1.3 x', async () => {
		const killAtMs = 12_000;
		// The dead worker's batch counts as sending for the shipped rule's time (1.5 x its expected
		// time + 3 s: 1,000 at 245 a second, about 9 s).
		const result = await campaign(limiter, { killAtMs, deadCountedMs: 9_000 });
		everyoneOnce(result, BATCH_SIZE);
		const before = rateBetween(result, killAtMs - 6_000, killAtMs);
		const survivorAfter = rateBetween(result, killAtMs + 12_000, killAtMs + 18_000, 1);
		// Each fixed share (245 a second) left the survivor at half the limit for good.
		expect(survivorAfter).toBeGreaterThanOrEqual(0.85 * before);
		expect(survivorAfter).toBeGreaterThanOrEqual(0.85 * SETTING);
		// Here the dead batch's 9 s and the survivor's batch at half weigh on 20 batches; fixed shares: 1.7 x.
		expect(overIdeal(result.elapsedMs, result.sent)).toBeLessThanOrEqual(1.3);
	});
});

/**
 * What holds a worker's process while its other batch sends (docs/performance.md, "Where the time
 * between a worker's batches goes", node times per batch in the bench): before the sends, Take
 * Batch 88 ms, Read Batches Sending 58, Batches Sharing the Limit 24, Read Opt-Outs 24, One Item
 * per Recipient 68, Send, Skip or Stop 151, then the node's check of the 1,000 items (about 0.3 s,
 * letting go every 50 items); after them, Delivery Rows 83, Record Deliveries 217, Reports Before
 * Record 55, Early Reports 50, Record Outcome 81.
 */
const HELD_AS_MEASURED: Partial<CampaignSimulation> = {
	heldBeforeMs: [88, 58, 24, 24, 68, 151, ...Array.from({ length: 20 }, () => 15)],
	heldAfterMs: [83, 217, 55, 50, 81],
};

/**
 * Two batches per worker (`--concurrency=2`, what docs/campaigns.md asks for) with n8n's hand-over as
 * measured in the bench (docs/performance.md, "Where the time between a worker's batches goes"): a
 * batch counts as sending 0.4 s before its first send (Take Batch to Send) and 0.5 s after its last
 * (to Record Outcome), and 0.6 s pass between one execution's end and the next one's Take Batch;
 * the worker that plans starts 3 s late. 40 batches of 1,000.
 */
const twoPerWorker = (limiter: LimiterSettings, extra: Partial<CampaignSimulation> = {}) =>
	campaign(limiter, {
		batches: 2 * BATCHES,
		concurrency: 2,
		handOverMs: 600,
		countedBeforeMs: 400,
		countedAfterMs: 500,
		firstBatchAtMs: (worker) => (worker === 0 ? 3000 : 0),
		...extra,
	});

describe.each(LIMITERS)('two batches per worker, n8n’s hand-over, %s', (_label, limiter) => {
	it('two workers: within 1.05 x the sends at the setting, under 1 in 100 refused, each sent once', async () => {
		const result = await twoPerWorker(limiter);
		expect(result.sent).toBe(2 * BATCHES * BATCH_SIZE);
		// One batch per worker: 1.38-1.39 x; two, each at a share fixed as it starts: 1.20-1.31 x.
		pacedWithin(result, 1.05);
	});

	it('three workers, the same settings: within 1.05 x, under 1 in 100 refused', async () => {
		// 60 batches: with 40 over six slots, the campaign's last batches, on fewer workers, weighed
		// up to 1.063 x.
		const result = await twoPerWorker(limiter, { workers: 3, batches: 60 });
		pacedWithin(result, 1.05);
	});

	it('busy workers (every timer up to 2 ms late): still within 1.06 x, under 1 in 100 refused', async () => {
		const result = await twoPerWorker(limiter, { timerLateMs: 0.2, timerJitterMs: 1.8 });
		// Each worker's share counted from each actual start, as the user's own limit is: 1.30 x.
		pacedWithin(result, 1.06);
	});

	it('n8n’s nodes holding each worker’s process between its sends, as measured: the holds made up where the gateway keeps a window, under 1 in 100 refused', async () => {
		const result = await twoPerWorker(limiter, HELD_AS_MEASURED);
		expect(result.sent).toBe(2 * BATCHES * BATCH_SIZE);
		// Each node's time counted as CPU holding the process (more than in the bench, where part
		// of it waits on Postgres). Made up for at most 4 intervals: 1.31 x (windows), 1.32 x (the
		// token bucket). A token bucket with a burst of 20 keeps nothing for a held process: the
		// starts made up are refused, then paused (never paused: 1.35 x, 1.5 % refused).
		// At 495 (1 % below the limit) the windows take 1.222-1.224 x: the same seconds as at 490
		// (1.21 x of a longer ideal), for the made-up starts run into the limit sooner.
		pacedWithin(result, limiter.model === 'tokenBucket' ? 1.33 : 1.23);
	});

	it('a worker killed mid-campaign: the other sends at the whole limit once the dead batches stop counting, the campaign within 1.16 x', async () => {
		const killAtMs = 40_000;
		// The shipped rule with four batches counted: 1.5 x 1,000 sends at 495 / 4 a second + 3 s
		// after they were taken, so up to about 15 s after the kill.
		const result = await twoPerWorker(limiter, { killAtMs, deadCountedMs: 15_000 });
		expect(result.failed).toBe(0);
		expect(result.doubles).toBe(0);
		// The dead worker's two batches at most: the one sending and the one waiting beside it.
		expect(result.lost).toBeLessThanOrEqual(2 * BATCH_SIZE);
		expect(result.sent + result.lost).toBe(2 * BATCHES * BATCH_SIZE);
		const survivorAfter = rateBetween(result, killAtMs + 20_000, killAtMs + 30_000, 1);
		expect(survivorAfter).toBeGreaterThanOrEqual(0.9 * SETTING);
		// Fixed windows at 495: 1.1505 x (at 490: 1.128 x of a longer ideal, the same seconds within
		// 0.2 %); a sliding window 1.13 x, the token bucket 1.15 x.
		expect(overIdeal(result.elapsedMs, result.sent)).toBeLessThanOrEqual(1.16);
	});
});

it('regular mode: one n8n process running ten batches at once sends at the limit, not at its shares', async () => {
	const result = await campaign(
		{ model: 'sliding', perSecond: LIMIT },
		{ workers: 1, concurrency: 10 },
	);
	everyoneOnce(result);
	expect(overIdeal(result.elapsedMs, result.sent)).toBeLessThanOrEqual(1.06);
	expect(result.refused).toBe(0);
});

it('never faster than the setting: no second of requests above 495 once the batches share it', async () => {
	const result = await campaign({ model: 'sliding', perSecond: 1000 });
	everyoneOnce(result);
	// The account allows 1,000 here, so nothing holds the pacers back but their settings. Only the
	// first batches, which started before they knew of each other, may pass it (once, for a batch).
	const starts = result.acceptedLog.map((send) => send.at).filter((at) => at >= 5_000);
	expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(SETTING + 1);
});
