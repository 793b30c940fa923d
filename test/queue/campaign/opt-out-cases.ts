/**
 * Every campaign run skips opted-out numbers (issue 54), for regular mode
 * (test/e2e/campaign.e2e.test.ts) and queue mode (test/queue/campaign.queue.test.ts) alike: the
 * opt-out list written through n8n's REST data-table API, the sends counted per phone at the sandbox.
 */
import { listOf, postJson, sendsPerPhone } from './campaign-kit';
import type { OptOutList } from './opt-out-list';
import { type CampaignUnderTest, type TestRegistrar, settledCampaign } from './safety-cases';

export interface OptOutCampaignUnderTest extends CampaignUnderTest {
	optOuts(): Promise<OptOutList>;
	/** What each failed execution of the batch workflow says. */
	batchFailures(): Promise<string[]>;
}

const people = (count: number, prefix: string) =>
	Array.from({ length: count }, (_, index) => ({
		phone: `${prefix}${String(index).padStart(5, '0')}`,
		name: `Customer ${index}`,
	}));
/** +254712345678 as a marketer's sheet may write it: 0712 345 678. */
const national = (phone: string) =>
	`0${phone.slice(4, 7)} ${phone.slice(7, 10)} ${phone.slice(10)}`;
const digits = (phone: string) => phone.replace(/\D/g, '');

/** Registers the cases with `it`. */
export function campaignOptOutCases(it: TestRegistrar, ctx: OptOutCampaignUnderTest): void {
	const start = (campaign: string, list: string, extra: Record<string, unknown> = {}) =>
		postJson(ctx.campaignUrl(), { campaign, recipientsUrl: ctx.listUrl(list), ...extra });
	/** How many times each number of this case's list (starting with `prefix`) was sent to. */
	const sendsTo = (prefix: string) =>
		new Map([...sendsPerPhone(ctx.sent())].filter(([phone]) => phone.startsWith(digits(prefix))));
	async function sendsReach(prefix: string, count: number) {
		for (let wait = 0; wait < 300 && sendsTo(prefix).size < count; wait++)
			await new Promise((resolve) => setTimeout(resolve, 300));
	}

	it('every run skips opted-out numbers, in any written form: 3 of 50 opted out, 47 sent, the summary says 3 opted out; one opts back in and the next run sends them; each run reads the list once, whatever the opt-out rows', async () => {
		const prefix = '+2547920';
		const list = people(50, prefix);
		// The list writes the three the national way; the opt-out list holds the normal form.
		ctx.putList(
			'opted',
			list.map((person, index) =>
				index < 3 ? { ...person, phone: national(person.phone) } : person,
			),
		);
		const optOuts = await ctx.optOuts();
		for (const person of list.slice(0, 3)) await optOuts.record(person.phone, 'opted out');
		const answer = await start('opted', 'opted');
		expect(answer.status).toBe(202);
		await settledCampaign(ctx, 'opted');
		// Once per run, not once per row of the opt-out list (3 rows here).
		expect(ctx.listReads('opted')).toBe(1);
		const expected = list.slice(3).map((person) => [digits(person.phone), 1]);
		expect([...sendsTo(prefix)].sort()).toEqual(expected.sort());
		const check = await start('opted', 'opted', { checkOnly: true });
		expect(check.status).toBe(200);
		expect(check.body).toMatchObject({
			state: 'checked',
			sent: 47,
			maybeSent: 0,
			notSent: 0,
			optedOut: 3,
			toSend: 0,
			message: expect.stringContaining('3 opted out'),
		});
		expect(ctx.listReads('opted')).toBe(2);
		// START: opted in again. The next run sends that one, and only that one.
		await optOuts.record(list[0].phone, 'opted in');
		expect((await start('opted', 'opted')).status).toBe(202);
		await sendsReach(prefix, 48);
		await settledCampaign(ctx, 'opted');
		expect(sendsTo(prefix).get(digits(list[0].phone))).toBe(1);
		expect([...sendsTo(prefix).values()]).toEqual(Array(48).fill(1));
		expect((await start('opted', 'opted', { checkOnly: true })).body).toMatchObject({
			sent: 48,
			optedOut: 2,
			toSend: 0,
		});
	});

	it('a number that opts out after the plan recorded its batch is not sent by that batch, which starts after: its row and the summary count it as opted out, never sent or not sent; a batch of only opted-out people is recorded done with nobody', async () => {
		const prefix = '+2547921';
		const list = people(10, prefix);
		ctx.putList('late-opt-out', list);
		const table = await ctx.table();
		if (!table) throw new Error('no campaign table: the first case creates it');
		// What Record Batch leaves: the batches recorded, queued, not yet taken by any execution.
		const batches = { 'late-1': list.slice(0, 9), 'late-2': list.slice(9) };
		for (const [batch, recipients] of Object.entries(batches))
			await table.insert({
				campaign: 'late-opt-out',
				batch,
				status: 'queued',
				recipients: recipients.map((person) => person.phone).join(','),
			});
		// The opt-outs are recorded (in other written forms) before the batches start...
		const optOuts = await ctx.optOuts();
		await optOuts.record(national(list[4].phone), 'opted out');
		await optOuts.record(digits(list[9].phone), 'opted out');
		// ...which they do when Queue Batch's posts arrive.
		for (const [batch, recipients] of Object.entries(batches)) {
			const posted = await postJson(ctx.batchUrl(), {
				campaign: 'late-opt-out',
				batch,
				recipients,
			});
			expect(posted.status).toBe(200);
		}
		await settledCampaign(ctx, 'late-opt-out');
		expect([...sendsTo(prefix).keys()].sort()).toEqual(
			list.filter((_, index) => index !== 4 && index !== 9).map((person) => digits(person.phone)),
		);
		const rows = (await table.rows('late-opt-out')).filter((entry) => entry.batch !== 'claim');
		const row = (batch: string) => rows.find((entry) => entry.batch === batch);
		expect(row('late-1')).toMatchObject({
			status: 'done',
			sentCount: 8,
			maybeSentCount: 0,
			notSentCount: 0,
		});
		expect(listOf(row('late-1')?.recipients)).not.toContain(list[4].phone);
		expect(row('late-2')).toMatchObject({ status: 'done', sentCount: 0, notSentCount: 0 });
		expect(listOf(row('late-2')?.recipients)).toEqual([]);
		const check = await start('late-opt-out', 'late-opt-out', { checkOnly: true });
		expect(check.body).toMatchObject({ sent: 8, maybeSent: 0, notSent: 0, optedOut: 2, toSend: 0 });
		// A rerun does not send them while they stay opted out.
		expect((await start('late-opt-out', 'late-opt-out')).status).toBe(202);
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(sendsTo(prefix).size).toBe(8);
	});

	it('an opt-out list that cannot be read (deleted): the batch sends nothing, puts itself back as queued and fails saying why; the next run sends it', async () => {
		const prefix = '+2547922';
		const list = people(3, prefix);
		ctx.putList('no-opt-out-list', list);
		const table = await ctx.table();
		if (!table) throw new Error('no campaign table: the first case creates it');
		await table.insert({
			campaign: 'no-opt-out-list',
			batch: 'unread-1',
			status: 'queued',
			recipients: list.map((person) => person.phone).join(','),
		});
		const failedBefore = (await ctx.batchFailures()).length;
		await (await ctx.optOuts()).remove();
		const posted = await postJson(ctx.batchUrl(), {
			campaign: 'no-opt-out-list',
			batch: 'unread-1',
			recipients: list,
		});
		expect(posted.status).toBe(200);
		let failures: string[] = [];
		for (let wait = 0; wait < 200 && failures.length <= failedBefore; wait++) {
			await new Promise((resolve) => setTimeout(resolve, 300));
			failures = await ctx.batchFailures();
		}
		expect(failures.join('\n')).toContain('Could not read the opt-out list');
		expect(sendsTo(prefix).size).toBe(0);
		const [row] = await table.rows('no-opt-out-list');
		expect(row).toMatchObject({ batch: 'unread-1', status: 'queued' });
		// The list back (the opt-out workflow or the campaign makes it): the next run posts the batch again.
		await ctx.optOuts();
		expect((await start('no-opt-out-list', 'no-opt-out-list')).status).toBe(202);
		await sendsReach(prefix, 3);
		await settledCampaign(ctx, 'no-opt-out-list');
		expect([...sendsTo(prefix).values()]).toEqual([1, 1, 1]);
	});
}
