/**
 * What a report costs the deliveries table, whatever its size. n8n's data tables index the row id
 * only, so a statement that finds a row by anything else (messageId) reads the whole table: about
 * 20 ms at 100,000 rows on Postgres, more with every campaign kept. The shipped workflows read it
 * once per 20 messages of a post and once per batch, and change rows by their id; counted here on
 * the model of the tables (workflow-model.ts: wholeReads), so a node that looks up one report at a
 * time fails these tests.
 */
import { BATCHES } from './campaign-code';
import { type Report, batchRun, triggerRun } from './delivery-runs';
import { Tables, interleave } from './workflow-model';

const TABLE = 'smsleopard_deliveries';
const ids = (count: number, prefix = 'wamid.') =>
	Array.from({ length: count }, (_, index) => `${prefix}${index}`);
const run = (...runs: Array<ReturnType<typeof batchRun>>) => interleave(runs, () => 0);
const wholeReads = (tables: Tables) => tables.wholeReads.get(TABLE) ?? 0;

/** A table holding a batch's rows of these messages, its reads counted from here on. */
function tableWithBatch(file: string, messageIds: string[]): Tables {
	const tables = new Tables();
	run(batchRun(file, tables, messageIds));
	tables.wholeReads.clear();
	return tables;
}

describe.each(BATCHES)('after a batch sent by %s', (file) => {
	it('a post of 45 reports of recorded messages reads the table 3 times (20 messages a look-up) and changes each row by its id', () => {
		const messageIds = ids(45);
		const tables = tableWithBatch(file, messageIds);
		const reports: Report[] = messageIds.map((messageId) => ({ messageId, word: 'delivered' }));
		run(triggerRun(tables, reports, 0));

		expect(wholeReads(tables)).toBe(3);
		const rows = tables.rows(TABLE);
		expect(rows).toHaveLength(45);
		expect(rows.every((row) => row.status === 'delivered' && row.rank === 2)).toBe(true);
	});

	it('repeats and late reports in one post read it no more often: 40 reports of 20 messages, one look-up', () => {
		const messageIds = ids(20);
		const tables = tableWithBatch(file, messageIds);
		const reports: Report[] = messageIds.flatMap((messageId) => [
			{ messageId, word: 'read' },
			{ messageId, word: 'delivered' },
		]);
		run(triggerRun(tables, reports, 0));

		expect(wholeReads(tables)).toBe(1);
		expect(tables.rows(TABLE).map((row) => row.status)).toEqual(Array(20).fill('read'));
	});
});

it('a post of 45 reports of messages no campaign recorded yet reads the table 6 times: 3 look-ups, then 3 again after they wait', () => {
	const tables = new Tables();
	const reports: Report[] = ids(45, 'wamid.early.').map((messageId) => ({
		messageId,
		word: 'sent',
	}));
	run(triggerRun(tables, reports, 0));

	expect(wholeReads(tables)).toBe(6);
	expect(tables.rows(TABLE).filter((row) => !row.campaign)).toHaveLength(45);
});

describe.each(BATCHES)('a batch sent by %s', (file) => {
	it('reads the table twice, however many of its reports came first, and writes their statuses into its rows', () => {
		const messageIds = ids(60);
		const tables = new Tables();
		// 50 of its messages reported before the batch writes its rows: they wait without a campaign.
		const early: Report[] = messageIds
			.slice(0, 50)
			.map((messageId) => ({ messageId, word: 'delivered' }));
		run(triggerRun(tables, early, 0));
		tables.wholeReads.clear();

		run(batchRun(file, tables, messageIds));

		expect(wholeReads(tables)).toBe(2);
		const rows = tables.rows(TABLE);
		expect(rows.filter((row) => !row.campaign)).toEqual([]);
		expect(rows.filter((row) => row.status === 'delivered')).toHaveLength(50);
		expect(rows.filter((row) => row.status === 'accepted')).toHaveLength(10);
	});
});
