/**
 * Deliveries counted per campaign (issue 54): the batch workflow writes one row per message sent
 * (accepted, rank 0), the trigger workflow applies each report to its row only when the report's
 * rank is higher (accepted 0, pending 1, delivered or failed 2, read 3), and a check counts the
 * rows. Played by test/examples/workflow-model.ts on the nodes of the shipped files, with the
 * reports generated: repeats, any order, reports quicker than the batch's record, messages no
 * campaign recorded, and the batch and the reports interleaved statement by statement. Whatever
 * the order, the counts equal the model's: each message counted once, at its highest status.
 */
import fc from 'fast-check';

import { BATCHES, CAMPAIGN, parseExample } from './campaign-code';
import { seededRandom as random } from './seeded-random';
import {
	type Report,
	BEFORE_0017,
	RANK,
	SETS,
	TRIGGER,
	batchRun,
	triggerRun,
} from './delivery-runs';
import { type Json, Tables, execution, interleave } from './workflow-model';

const CAMPAIGN_FILE = parseExample(CAMPAIGN);
const TABLE = 'smsleopard_deliveries';

/** What a check answers: the campaign's Campaign Summary after Release Claim, on these tables. */
function check(tables: Tables, sent: number, state = 'checked'): Json {
	let result: Json = {};
	const run = execution(
		CAMPAIGN_FILE,
		'Release Claim',
		[{ json: {} }],
		{
			'Check Start': [{ json: { campaign: 'spring' } }],
			// What the plan workflow hands back: Plan Batches' summary (its Plan Summary).
			'Plan the Campaign': [
				{
					json: { kind: 'summary', state, sent, message: 'Campaign spring checked, nothing sent.' },
				},
			],
		},
		tables,
	);
	for (let step = run.next(); ; step = run.next())
		if (step.done) {
			result = step.value['Campaign Summary'][0].json;
			break;
		}
	return result;
}

/** The reports a message may get: none, pending only, delivered, read, failed (with a reason). */
const PATHS: Report[][] = [
	[],
	[{ messageId: '', word: 'sent' }],
	[
		{ messageId: '', word: 'sent' },
		{ messageId: '', word: 'delivered' },
	],
	[
		{ messageId: '', word: 'sent' },
		{ messageId: '', word: 'delivered' },
		{ messageId: '', word: 'read' },
	],
	[
		{ messageId: '', word: 'sent' },
		{ messageId: '', word: 'failed', reason: 'Message undeliverable' },
	],
	[{ messageId: '', word: 'DELIVRD' }],
	[{ messageId: '', word: 'UNDELIV', reason: 'Absent subscriber' }],
];

/** Rows of a campaign's messages, and rows without a campaign (reports of unknown messages). */
const campaignRows = (tables: Tables) => tables.rows(TABLE).filter((row) => row.campaign);
const unknownRows = (tables: Tables) => tables.rows(TABLE).filter((row) => !row.campaign);

const OLD_TRIGGER = BEFORE_0017('opt-outs-from-replies.json');
/**
 * The batch as shipped or as shipped before decision 0017, and the trigger workflows that post its
 * reports: as shipped, as before, or each post by either (two mains mid-upgrade). Old and new write
 * the same rows, so any mix counts the same.
 */
const DEPLOYMENTS = BATCHES.flatMap((file) => [
	{ name: `${file}, trigger as shipped`, batch: parseExample(file), triggers: [TRIGGER] },
	{
		name: `${file} before 0017, trigger as shipped`,
		batch: BEFORE_0017(file),
		triggers: [TRIGGER],
	},
	{ name: `${file}, trigger before 0017`, batch: parseExample(file), triggers: [OLD_TRIGGER] },
	{
		name: `${file}, each post by the trigger as shipped or before 0017`,
		batch: parseExample(file),
		triggers: [TRIGGER, OLD_TRIGGER],
	},
]);

describe.each(DEPLOYMENTS)('deliveries: $name, reports in any order', ({ batch, triggers }) => {
	it('every message is counted once at its highest status, whatever the order of reports, repeats, reports before the record and unknown ids', () => {
		fc.assert(
			fc.property(
				fc.array(fc.integer({ min: 0, max: PATHS.length - 1 }), { minLength: 1, maxLength: 5 }),
				fc.array(fc.integer({ min: 1, max: PATHS.length - 1 }), { maxLength: 2 }),
				fc.integer({ min: 0, max: 2 ** 31 }),
				(paths, unknownPaths, seed) => {
					const pick = random(seed);
					const tables = new Tables();
					const messageIds = paths.map((_, index) => `wamid.${index}`);
					const unknownIds = unknownPaths.map((_, index) => `wamid.unknown.${index}`);
					const reports: Report[] = [];
					const expected = new Map<string, string>();
					[...paths, ...unknownPaths].forEach((path, index) => {
						const id = index < paths.length ? messageIds[index] : unknownIds[index - paths.length];
						expected.set(id, 'accepted');
						for (const report of PATHS[path]) {
							const status = SETS[report.word];
							if (RANK[status] > RANK[expected.get(id)!]) expected.set(id, status);
							// Each report once, twice or three times: providers repeat.
							for (let copy = 0; copy <= pick(3); copy++)
								reports.push({ ...report, messageId: id });
						}
					});
					// Any order: shuffled, then cut into posts of one to three reports.
					for (let index = reports.length - 1; index > 0; index--) {
						const other = pick(index + 1);
						[reports[index], reports[other]] = [reports[other], reports[index]];
					}
					const runs = [batchRun(batch, tables, messageIds)];
					for (let from = 0; from < reports.length;) {
						const size = 1 + pick(3);
						const trigger = triggers[pick(triggers.length)];
						runs.push(triggerRun(tables, reports.slice(from, from + size), from, trigger));
						from += size;
					}
					interleave(runs, pick);

					// One row per message of the campaign, at its highest status; none left unknown.
					const rows = campaignRows(tables);
					expect(rows.map((row) => row.messageId).sort()).toEqual([...messageIds].sort());
					for (const row of rows)
						expect([row.messageId, row.status, row.rank]).toEqual([
							row.messageId,
							expected.get(String(row.messageId)),
							RANK[expected.get(String(row.messageId))!],
						]);
					const unknown = unknownRows(tables);
					expect(unknown.filter((row) => messageIds.includes(String(row.messageId)))).toEqual([]);
					const reported = unknownIds.filter((id) => expected.get(id) !== 'accepted');
					expect([...new Set(unknown.map((row) => row.messageId))].sort()).toEqual(reported.sort());
					for (const id of reported) {
						const best = Math.max(
							...unknown.filter((row) => row.messageId === id).map((row) => Number(row.rank)),
						);
						expect([id, best]).toEqual([id, RANK[expected.get(id)!]]);
					}

					// The check counts what the model says, and the counts add up.
					const statuses = messageIds.map((id) => expected.get(id)!);
					const times = (...wanted: string[]) => statuses.filter((s) => wanted.includes(s)).length;
					const summary = check(tables, messageIds.length);
					expect(summary).toMatchObject({
						accepted: messageIds.length,
						delivered: times('delivered', 'read'),
						read: times('read'),
						failed: times('failed'),
						pending: times('accepted', 'pending'),
						sentNotTracked: 0,
						unknownReports: reported.length,
					});
					const failedReasons = summary.failedReasons as Array<{ count: number }>;
					expect(failedReasons.reduce((sum, entry) => sum + entry.count, 0)).toBe(times('failed'));
					expect(Number(summary.delivered) + Number(summary.failed) + Number(summary.pending)).toBe(
						messageIds.length,
					);
				},
			),
			{ numRuns: 1000 },
		);
	});
});

describe('the rank rule, one report after another', () => {
	function statusAfter(words: string[]): unknown {
		const tables = new Tables();
		const runs = [batchRun(BATCHES[0], tables, ['wamid.1'])];
		interleave(runs, () => 0);
		for (const [index, word] of words.entries()) {
			const reasons: Record<string, string> = {
				failed: 'Not on WhatsApp',
				UNDELIV: 'Absent subscriber',
			};
			interleave(
				[triggerRun(tables, [{ messageId: 'wamid.1', word, reason: reasons[word] }], index)],
				() => 0,
			);
		}
		const [row] = campaignRows(tables);
		return row.status;
	}

	it('a late delivered after read changes nothing; a repeat changes nothing', () => {
		expect(statusAfter(['read', 'delivered', 'sent'])).toBe('read');
		expect(statusAfter(['delivered', 'delivered'])).toBe('delivered');
	});

	it('the first final status wins between delivered and failed', () => {
		expect(statusAfter(['delivered', 'failed'])).toBe('delivered');
		expect(statusAfter(['UNDELIV', 'DELIVRD'])).toBe('failed');
		// Read is later than failed: WhatsApp reads a message it said failed only if it was delivered.
		expect(statusAfter(['failed', 'read'])).toBe('read');
	});
});

describe("the campaign's summary", () => {
	it('names the main reasons of failure with their counts, most first', () => {
		const tables = new Tables();
		const ids = ['a', 'b', 'c', 'd'];
		interleave([batchRun(BATCHES[1], tables, ids)], () => 0);
		const words: Report[] = [
			{ messageId: 'a', word: 'UNDELIV', reason: 'Absent subscriber' },
			{ messageId: 'b', word: 'UNDELIV', reason: 'Absent  subscriber' },
			{ messageId: 'c', word: 'UNDELIV', reason: 'Expired' },
			{ messageId: 'd', word: 'DELIVRD' },
		];
		interleave([triggerRun(tables, words, 0)], () => 0);
		const summary = check(tables, 4);
		expect(summary).toMatchObject({
			accepted: 4,
			delivered: 1,
			failed: 3,
			pending: 0,
			failedReasons: [
				{ reason: 'Absent subscriber', count: 2 },
				{ reason: 'Expired', count: 1 },
			],
		});
		expect(summary.message).toContain(
			'Deliveries: 4 accepted, 1 delivered (0 read), 3 failed (Absent subscriber 2, Expired 1), 0 pending',
		);
	});

	it('counts 12,001 rows a page of 5,000 at a time (3 pages), each row once, whatever other campaigns hold', () => {
		const tables = new Tables();
		const statuses = ['accepted', 'pending', 'delivered', 'read', 'failed'];
		for (let index = 0; index < 12_001; index++) {
			const status = statuses[index % 5];
			tables.insert(TABLE, {
				messageId: `wamid.${index}`,
				campaign: 'spring',
				status,
				rank: RANK[status],
				reason: status === 'failed' ? (index % 2 ? 'Expired' : 'Absent subscriber') : null,
			});
			// Another campaign's row between every two: pages are by id, not by row count.
			if (index % 2) tables.insert(TABLE, { messageId: `other.${index}`, campaign: 'winter' });
		}
		const summary = check(tables, 12_001);
		expect(summary).toMatchObject({
			accepted: 12_001,
			delivered: 4_800,
			read: 2_400,
			failed: 2_400,
			pending: 4_801,
			sentNotTracked: 0,
		});
		const reasons = summary.failedReasons as Array<{ reason: string; count: number }>;
		expect(reasons.reduce((sum, entry) => sum + entry.count, 0)).toBe(2_400);
	});

	it('a campaign recorded before deliveries were counted says so instead of failing', () => {
		const summary = check(new Tables(), 5);
		expect(summary).toMatchObject({ accepted: 0, sentNotTracked: 5, pending: 0 });
		expect(summary.message).toContain('Deliveries are not counted for this campaign');
	});

	it('a deliveries table that cannot be read leaves the counts empty and says why', () => {
		const tables = new Tables();
		tables.broken.add(TABLE);
		const summary = check(tables, 5);
		expect(summary).toMatchObject({ accepted: null, delivered: null, failed: null, pending: null });
		expect(summary.message).toContain('could not be read');
		expect(summary.deliveriesNote).toContain('smsleopard_deliveries could not be read');
	});

	it('only a check reads the deliveries: a run that starts the campaign does not', () => {
		const tables = new Tables();
		interleave([batchRun(BATCHES[0], tables, ['a'])], () => 0);
		const summary = check(tables, 1, 'started');
		expect(summary).toMatchObject({
			accepted: null,
			deliveriesNote: expect.stringContaining('checkOnly'),
		});
	});
});
