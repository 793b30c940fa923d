/**
 * The campaign started the ways that broke it before (issue 50), for regular mode
 * (test/e2e/campaign.e2e.test.ts) and queue mode (test/queue/campaign.queue.test.ts) alike: a
 * stranger without the key, two and five starts at once, five first starts of a new campaign (one
 * of them plans), a client that gives up and posts again, a batch posted twice, a forged batch. Each
 * counts the sends per phone at the sandbox: nobody twice, and after the runs settle (and one more
 * run where a start may have stood back), exactly once.
 */
import { type CampaignTable, postJson, sendsPerPhone, sentTwice } from './campaign-kit';

export interface CampaignUnderTest {
	campaignUrl(): string;
	batchUrl(): string;
	/** Serves `name` as the CSV at listUrl(name). */
	putList(name: string, rows: Array<{ phone: string; name: string }>, delayMs?: number): void;
	listUrl(name: string): string;
	/** How many times the list `name` was read (the plan reads it once per run). */
	listReads(name: string): number;
	/** Every destination the sandbox sent to since the test began. */
	sent(): string[];
	/**
	 * Whether starts posted at once run at once (regular mode) or queue for the workers (queue mode
	 * with one job per worker: a start that waits its turn may begin after the first run finished
	 * planning, and then plans again as a rerun would, queuing nobody new).
	 */
	startsRunAtOnce: boolean;
	table(): Promise<CampaignTable | undefined>;
}

const people = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, index) => ({
		phone: `${prefix}${String(index).padStart(5, '0')}`,
		name: `Customer ${index}`,
	}));

/** jest's `it`, or the queue suite's, which shows n8n's logs when a test fails. */
export interface TestRegistrar {
	(name: string, fn: () => Promise<unknown>, timeout?: number): void;
	each<Row extends unknown[]>(
		table: Row[],
	): (name: string, fn: (...row: Row) => Promise<unknown>, timeout?: number) => void;
}

/**
 * Waits until no run holds the campaign's claim (every run that planned has queued its batches),
 * every batch is done and the sandbox took nothing for 1.5 s.
 */
export async function settledCampaign(
	ctx: CampaignUnderTest,
	campaign: string,
): Promise<CampaignTable> {
	const deadline = Date.now() + 120_000;
	let [count, quietSince] = [-1, Date.now()];
	while (Date.now() < deadline) {
		if (ctx.sent().length !== count) [count, quietSince] = [ctx.sent().length, Date.now()];
		const table = await ctx.table();
		const rows = (await table?.rows(campaign)) ?? [];
		const claims = rows.filter((row) => row.batch === 'claim');
		const batches = rows.filter((row) => row.batch !== 'claim');
		const done =
			claims.every((row) => row.status === 'free') &&
			batches.length > 0 &&
			batches.every((row) => row.status === 'done');
		if (table && done && Date.now() - quietSince > 1500) return table;
		await new Promise((resolve) => setTimeout(resolve, 300));
	}
	throw new Error(`campaign ${campaign} did not settle`);
}

/** Registers the cases with `it`. */
export function campaignSafetyCases(it: TestRegistrar, ctx: CampaignUnderTest): void {
	const start = (campaign: string, list: string, extra: Record<string, unknown> = {}) =>
		postJson(ctx.campaignUrl(), { campaign, recipientsUrl: ctx.listUrl(list), ...extra });

	const settled = (campaign: string) => settledCampaign(ctx, campaign);

	/**
	 * What the sandbox sent to the people of this case's list (numbers starting with `prefix`): a case
	 * that failed earlier may still be sending to its own.
	 */
	const sentTo = (prefix: string) => {
		const digits = prefix.replace(/\D/g, '');
		return ctx.sent().filter((phone) => phone.replace(/\D/g, '').startsWith(digits));
	};

	/** After the runs settle and one more run: `count` people sent exactly once, nobody twice. */
	async function exactlyOnceAfterOneMoreRun(campaign: string, prefix: string, count: number) {
		await settled(campaign);
		expect(sentTwice(sentTo(prefix))).toEqual([]);
		expect((await start(campaign, campaign)).status).toBe(202);
		await settled(campaign);
		await new Promise((resolve) => setTimeout(resolve, 1500));
		expect(sentTwice(sentTo(prefix))).toEqual([]);
		expect(sendsPerPhone(sentTo(prefix)).size).toBe(count);
	}

	/** The executions that recorded the campaign's batches: the runs that planned someone. */
	const planners = async (table: CampaignTable, campaign: string) =>
		new Set(
			(await table.rows(campaign))
				.filter((row) => row.batch !== 'claim')
				.map((row) => String(row.batch).split('-')[0]),
		);

	it('a stranger without the key gets 403 and starts nothing; a caller may not choose where batches go (400, naming the field)', async () => {
		ctx.putList('stranger', people(20, '+2547990'));
		for (const key of [null, 'a-guessed-key']) {
			const answer = await postJson(
				ctx.campaignUrl(),
				{ campaign: 'stranger', recipientsUrl: ctx.listUrl('stranger') },
				key,
			);
			expect(answer.status).toBe(403);
			const batch = await postJson(
				ctx.batchUrl(),
				{ campaign: 'stranger', batch: '1-1', recipients: people(20, '+2547990') },
				key,
			);
			expect(batch.status).toBe(403);
		}
		const redirected = await start('stranger', 'stranger', {
			batchWorkflowUrl: 'https://example.org/steal',
		});
		expect(redirected.status).toBe(400);
		expect(String(redirected.body.error)).toContain('batchWorkflowUrl');
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(ctx.sent()).toEqual([]);
		expect((await (await ctx.table())?.rows('stranger')) ?? []).toEqual([]);
	});

	it.each([[2], [5]])(
		'%i starts at once of a campaign run before: one plans, the others answer at once with where it stands (409); nobody twice',
		async (starts) => {
			const name = `together-${starts}`;
			const prefix = `+25479${starts}0`;
			const list = people(200, prefix);
			ctx.putList(name, list.slice(0, 1));
			await start(name, name);
			await settled(name);
			// answered 3 s late, so runs that get past the claim read the list at the same time.
			ctx.putList(name, list, 3000);
			const answers = await Promise.all(Array.from({ length: starts }, () => start(name, name)));
			for (const answer of answers) expect([202, 409]).toContain(answer.status);
			expect(answers.filter((answer) => answer.status === 202).length).toBeGreaterThan(0);
			for (const answer of answers.filter((entry) => entry.status === 409))
				expect(answer.body).toMatchObject({
					state: 'claimed',
					campaign: name,
					sent: expect.any(Number),
				});
			await exactlyOnceAfterOneMoreRun(name, prefix, 200);
		},
	);

	it('five first starts at once of a new campaign: exactly one plans (run at once: one 202, four 409); once settled everyone exactly once, without one more run', async () => {
		ctx.putList('first-five', people(200, '+2547960'), 3000);
		const answers = await Promise.all([1, 2, 3, 4, 5].map(() => start('first-five', 'first-five')));
		const statuses = answers.map((answer) => answer.status).sort();
		if (ctx.startsRunAtOnce) expect(statuses).toEqual([202, 409, 409, 409, 409]);
		else expect(statuses.every((status) => status === 202 || status === 409)).toBe(true);
		for (const answer of answers.filter((entry) => entry.status === 409))
			expect(answer.body).toMatchObject({ state: 'claimed', campaign: 'first-five' });
		const table = await settled('first-five');
		// One run recorded every batch: any run after it found everyone planned.
		expect((await planners(table, 'first-five')).size).toBe(1);
		// The runs that stood back withdrew their claim rows: one claim row is left, free.
		const claims = (await table.rows('first-five')).filter((row) => row.batch === 'claim');
		expect(claims.map((row) => row.status)).toEqual(['free']);
		expect(sentTwice(sentTo('+2547960'))).toEqual([]);
		expect(sendsPerPhone(sentTo('+2547960')).size).toBe(200);
	});

	it('a client that gives up after 50 ms (or is answered first) and posts again: nobody twice; after one more run everyone exactly once', async () => {
		ctx.putList('impatient', people(200, '+2547970'), 3000);
		const impatient = new AbortController();
		setTimeout(() => impatient.abort(), 50);
		const first = await postJson(
			ctx.campaignUrl(),
			{ campaign: 'impatient', recipientsUrl: ctx.listUrl('impatient') },
			undefined,
			impatient.signal,
		).then(
			(answer) => answer.status,
			(error: Error) => error.name,
		);
		// The Campaign Webhook answers once the run has claimed the campaign, which a fast machine
		// does within the 50 ms: either way the first post reached n8n, and the client posts again
		// not knowing what became of it.
		expect(['AbortError', 202]).toContain(first);
		expect([202, 409]).toContain((await start('impatient', 'impatient')).status);
		await exactlyOnceAfterOneMoreRun('impatient', '+2547970', 200);
	});

	it('a batch posted twice at once is sent once; a forged batch post sends only to the numbers the campaign recorded in it', async () => {
		const list = people(40, '+2547930');
		ctx.putList('forged', list);
		await start('forged', 'forged');
		const table = await settled('forged');
		const before = ctx.sent().length;
		// Repeated: a done batch posted again twice at once, with its own recipients.
		const [row] = (await table.rows('forged')).filter((entry) => entry.batch !== 'claim');
		const repeat = { campaign: 'forged', batch: row.batch, recipients: list };
		await Promise.all([postJson(ctx.batchUrl(), repeat), postJson(ctx.batchUrl(), repeat)]);
		// A queued batch posted twice at once, naming strangers beside one of its recorded people.
		await table.insert({
			campaign: 'forged',
			batch: 'forged-x',
			status: 'queued',
			recipients: '+254793099990,+254793099991',
		});
		const forged = {
			campaign: 'forged',
			batch: 'forged-x',
			recipients: [...people(5, '+2547931'), { phone: '+254793099990', name: 'Recorded' }],
		};
		await Promise.all([postJson(ctx.batchUrl(), forged), postJson(ctx.batchUrl(), forged)]);
		await settled('forged');
		await new Promise((resolve) => setTimeout(resolve, 2000));
		const after = ctx
			.sent()
			.slice(before)
			.map((phone) => phone.replace(/\D/g, ''));
		expect(after.sort()).toEqual(['254793099990', '254793099991']);
		expect(sentTwice(ctx.sent())).toEqual([]);
	});
}
