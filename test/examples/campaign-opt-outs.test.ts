/**
 * Every campaign run skips opted-out numbers (issue 54): Plan Batches leaves out anyone the opt-out
 * list (smsleopard_opt_outs) says opted out, whatever form either writes the number in, and counts
 * them; each batch workflow reads the list again after Take Batch and leaves out whoever opted out
 * since. The Code nodes' copies of the contract's normal form are run on its cases here.
 */
import fc from 'fast-check';
import { runInNewContext } from 'vm';

import {
	BATCHES,
	CAMPAIGN,
	byName,
	csvOf,
	normalFormIn,
	type OptOutRow,
	parseExample,
	PLAN,
	peopleOf,
	runBatchRecipients,
	runPlan,
	SMS_FALLBACK,
} from './campaign-code';

const COPIES: Array<[string, string]> = [
	[CAMPAIGN, 'Plan Batches'],
	...BATCHES.map((file): [string, string] => [file, 'Who Gets the Message']),
	[SMS_FALLBACK, 'People to Send'],
];
const out = (phone: string, at = '2026-11-01T10:00:00.000Z'): OptOutRow => ({
	phone,
	status: 'opted out',
	word: 'STOP',
	at,
	source: 'whatsapp',
});
const summaryOf = (items: ReturnType<typeof runPlan>) => items[items.length - 1].json;
const plannedPhones = (items: ReturnType<typeof runPlan>) =>
	items
		.filter((item) => item.json.kind === 'new' || item.json.kind === 'again')
		.flatMap((item) => String(item.json.phones).split(','));

/** Any text of digits and separators, or a number as people write it, in any country. */
const anyWrittenNumber = fc.oneof(
	fc.stringMatching(/^[+0-9 ()-]{0,20}$/),
	fc
		.tuple(
			fc.constantFrom('', '+', '0', '00', '+254', '254', '00254', '+44 ', '(0)'),
			fc.stringMatching(/^\d{6,14}$/),
		)
		.map(([prefix, rest]) => `${prefix}${rest}`),
);

describe.each(COPIES)("the normal form's copy in %s > %s", (file, node) => {
	const normalForm = normalFormIn(file, node);

	it("writes the contract's international forms as +254712345678, and a national one without assuming a country", () => {
		for (const written of ['+254712345678', '254712345678', '00254712345678'])
			expect([written, normalForm(written)]).toEqual([written, '+254712345678']);
		expect(normalForm('0712 345 678')).toBe('0712345678');
		expect(normalForm('+44 20 7946 0958')).toBe('+442079460958');
		expect(normalForm('0044 20 7946 0958')).toBe('+442079460958');
		expect(normalForm('(+254) 712-345-678')).toBe('+254712345678');
	});

	it('anything that is not + and 8 to 15 digits is not a number', () => {
		for (const written of [
			'',
			'STOP',
			'712345678',
			'+1234567',
			'+1234567890123456',
			null,
			undefined,
		])
			expect([written, normalForm(written)]).toEqual([written, '']);
	});

	it('every written form of a Kenyan mobile number is one person (generated)', () => {
		const separator = fc.constantFrom('', ' ', '-', '.');
		fc.assert(
			fc.property(
				fc.stringMatching(/^7\d{8}$/),
				fc.constantFrom('0', '+254', '254', '00254', '+254 ', '(+254)'),
				separator,
				(subscriber, prefix, sep) => {
					const written = `${prefix}${subscriber.slice(0, 3)}${sep}${subscriber.slice(3, 6)}${sep}${subscriber.slice(6)}`;
					expect(normalForm(written)).toBe(prefix === '0' ? `0${subscriber}` : `+254${subscriber}`);
				},
			),
			{ numRuns: 300 },
		);
	});

	it("agrees with the campaign's copy on any text (generated)", () => {
		const campaigns = normalFormIn(CAMPAIGN, 'Plan Batches');
		fc.assert(
			fc.property(anyWrittenNumber, (written) => {
				expect(normalForm(written)).toBe(campaigns(written));
			}),
			{ numRuns: 500 },
		);
	});
});

describe('Plan Batches skips opted-out numbers and says how many', () => {
	const people = [
		{ phone: '0712 345 678', name: 'Amina' },
		{ phone: '254712000002', name: 'Baraka' },
		{ phone: '+254 712 000 003', name: 'Chebet' },
		...peopleOf(7).map(({ phone, name }) => ({ phone, name })),
	];

	it('the list writes a number one way and the opt-out list another: still skipped, counted, in words', () => {
		const items = runPlan({
			recipients: [csvOf(people)],
			optOuts: [out('+254712345678'), out('+254712000002'), out('00254712000003')],
		});
		expect(plannedPhones(items).sort()).toEqual(
			people
				.slice(3)
				.map((person) => person.phone)
				.sort(),
		);
		expect(summaryOf(items)).toMatchObject({
			optedOut: 3,
			queuedNow: 7,
			toSend: 7,
			recipients: 10,
		});
		expect(String(summaryOf(items).message)).toContain('7 queued now, 3 skipped as opted out');
		expect(String(summaryOf(items).message)).toContain('3 opted out');
		// Not recorded into any batch: the body posted to the batch workflow holds none of them either.
		const posted = items
			.filter((item) => item.json.kind === 'new')
			.flatMap((item) => JSON.parse(String(item.json.body)).recipients as Array<{ name: string }>);
		expect(posted.map((person) => person.name)).not.toEqual(
			expect.arrayContaining([expect.stringMatching(/Amina|Baraka|Chebet/)]),
		);
	});

	it('the check-only run shows them too', () => {
		const summary = summaryOf(
			runPlan({
				recipients: [csvOf(people)],
				optOuts: [out('0712345678')],
				settings: { checkOnly: true },
			}),
		);
		expect(summary).toMatchObject({ state: 'checked', optedOut: 1, toSend: 9, queuedNow: 0 });
		expect(String(summary.message)).toContain('a run now would queue 9 and skip 1 opted out');
	});

	it('opted in again (a later row, or only an opted-in row) is sent; opted out again later is skipped', () => {
		const items = runPlan({
			recipients: [csvOf(people)],
			optOuts: [
				out('+254712345678', '2026-11-01T10:00:00.000Z'),
				{ ...out('0712345678', '2026-11-02T10:00:00.000Z'), status: 'opted in', word: 'START' },
				{ ...out('+254712000002'), status: 'opted in' },
				{ ...out('254712000003', '2026-11-01T10:00:00.000Z'), status: 'opted in' },
				out('+254712000003', '2026-11-03T10:00:00.000Z'),
			],
		});
		expect(plannedPhones(items)).toEqual(expect.arrayContaining(['0712 345 678', '254712000002']));
		expect(plannedPhones(items)).not.toContain('+254 712 000 003');
		expect(summaryOf(items)).toMatchObject({ optedOut: 1, queuedNow: 9 });
	});

	it('no opt-out list yet (an empty table): nobody skipped, optedOut 0', () => {
		const items = runPlan({ recipients: [csvOf(people)] });
		expect(summaryOf(items)).toMatchObject({ optedOut: 0, queuedNow: 10 });
	});

	it('someone not sent before, or waiting in a queued batch, who opted out since counts as opted out, not as not sent or still queued', () => {
		const [first, second] = [people[3].phone, people[4].phone];
		const items = runPlan({
			recipients: [csvOf(people)],
			rows: [
				{
					batch: '7-1',
					status: 'done',
					recipients: first,
					sent: '',
					maybeSent: '',
					notSent: first,
				},
				{ batch: '7-2', status: 'queued', recipients: second },
			],
			optOuts: [out(first), out(second)],
		});
		expect(summaryOf(items)).toMatchObject({
			optedOut: 2,
			notSent: 0,
			stillQueued: 8,
			queuedNow: 8,
		});
		expect(plannedPhones(items)).not.toEqual(expect.arrayContaining([first]));
		// Its queued batch is still posted again: the batch workflow skips them and records it done.
		expect(
			items.filter((item) => item.json.kind === 'again').map((item) => item.json.phones),
		).toEqual([second]);
	});

	it('someone already sent who opts out afterwards stays counted as sent', () => {
		const phone = people[5].phone;
		const items = runPlan({
			recipients: [csvOf(people)],
			rows: [{ batch: '7-1', status: 'done', recipients: phone, sent: `${phone}:wamid.1` }],
			optOuts: [out(phone)],
		});
		expect(summaryOf(items)).toMatchObject({ sent: 1, optedOut: 0, queuedNow: 9 });
	});
});

describe('an opt-out list that cannot be read stops the run before anyone is sent', () => {
	// A Data table node that continues on an error outputs the item it was given, not a row.
	const notRead = [
		{ json: { campaign: 'spring', batch: '7-1', status: 'sending (execution 41)' } },
	];
	const rows = [{ json: { id: 1, ...out('+254712000001') } }];
	const empty = [{ json: {} }];

	it("the campaign's Opt-Out List Read? lets only rows of the list (or none) through to the plan", () => {
		const plan = parseExample(PLAN);
		const check = byName(plan, 'Opt-Out List Read?').parameters as {
			conditions: { conditions: Array<{ leftValue: string }> };
		};
		const expression = check.conditions.conditions[0].leftValue.replace(/^=\{\{|\}\}$/g, '');
		const read = (items: unknown[]) =>
			runInNewContext(expression, { $: () => ({ all: () => items }) });
		expect([read(rows), read(empty), read(notRead)]).toEqual([true, true, false]);
		expect(plan.connections['Get Opt-Outs'].main[0][0].node).toBe('Opt-Out List Read?');
		expect(plan.connections['Opt-Out List Read?'].main.map((outs) => outs[0].node)).toEqual([
			'Get Recipients',
			'Plan Not Made',
		]);
		// No plan made: the campaign frees its claim and stops with the plan's reason.
		const campaign = parseExample(CAMPAIGN);
		expect(campaign.connections['Plan Made?'].main.map((outs) => outs[0].node)).toEqual([
			'Release Claim',
			'Release Claim After Error',
		]);
		expect(campaign.connections['Release Claim After Error'].main[0][0].node).toBe('List Not Read');
	});

	it.each(BATCHES)('%s: Who Gets the Message sends nobody and says so', (file) => {
		const items = runBatchRecipients(file, ['+254712000002'], []);
		expect(items.map((item) => item.json)).toEqual([{ recipients: [{ phone: '+254712000002' }] }]);
		const unread = runBatchRecipients(file, ['+254712000002'], [], undefined, notRead);
		expect(unread.map((item) => item.json)).toEqual([{ optOutListUnread: true }]);
	});
});

describe.each(BATCHES)('examples/%s leaves out who opted out after the plan', (file) => {
	const workflow = parseExample(file);

	it('reads the opt-out list after Take Batch (once per batch), before Who Gets the Message', () => {
		// After Take Batch, the batches sending are counted (the share of the limit), then the list read.
		const next = (name: string) => workflow.connections[name].main[0].map((to) => to.node);
		expect(next('Take Batch')).toEqual(['Read Batches Sending']);
		expect(next('Read Batches Sending')).toEqual(['Batches Sharing the Limit']);
		expect(next('Batches Sharing the Limit')).toEqual(['Read Opt-Outs']);
		expect(workflow.connections['Read Opt-Outs'].main[0].map((to) => to.node)).toEqual([
			'Who Gets the Message',
		]);
		expect(next('Who Gets the Message')).toEqual(['Send, Skip or Stop']);
		// The list cannot be read: the batch is put back as queued and the run fails, nothing sent.
		expect(byName(workflow, 'Read Opt-Outs').onError).toBe('continueRegularOutput');
		expect(workflow.connections['Send, Skip or Stop'].main.map((out) => out[0].node)).toEqual([
			'Put Batch Back',
			'Record Batch All Opted Out',
			'One Item per Recipient',
		]);
		expect(next('One Item per Recipient')).toEqual(['Send Campaign Message']);
	});

	it('Send, Skip or Stop routes one item, not one per recipient: n8n evaluates its expression per item', () => {
		// 1,000 evaluations held the worker about 0.15 s, its other batch's paced sends waiting
		// (docs/performance.md). The recipients become items after it, in n8n's Split Out.
		const recipients = Array.from(
			{ length: 1000 },
			(_, index) => `+2547${String(index).padStart(8, '0')}`,
		);
		const items = runBatchRecipients(file, recipients, []);
		expect(items).toHaveLength(1);
		expect(items[0].json.recipients).toEqual(recipients.map((phone) => ({ phone })));
		const split = byName(workflow, 'One Item per Recipient');
		expect(split.type).toBe('n8n-nodes-base.splitOut');
		expect(split.parameters).toEqual({
			fieldToSplitOut: 'recipients',
			include: 'noOtherFields',
			options: {},
		});
	});

	it('sends only to who did not opt out, in any written form, with the columns the post gave', () => {
		const recipients = ['+254712000001', '0712000002', '254712000003', '+254712000004'];
		const items = runBatchRecipients(
			file,
			recipients,
			[
				out('254712000001'),
				out('+254 712 000 002'),
				{ ...out('+254712000003'), status: 'opted in' },
			],
			recipients.map((phone, index) => ({ phone, name: `Person ${index}` })),
		);
		expect(items.map((item) => item.json)).toEqual([
			{
				recipients: [
					{ phone: '254712000003', name: 'Person 2' },
					{ phone: '+254712000004', name: 'Person 3' },
				],
			},
		]);
	});

	it('everyone in the batch opted out: nothing to send, the batch is still recorded as done', () => {
		const items = runBatchRecipients(file, ['+254712000001'], [out('0712000001')]);
		expect(items.map((item) => item.json)).toEqual([{ everyoneOptedOut: true, optedOut: 1 }]);
		const record = byName(workflow, 'Record Batch All Opted Out').parameters.columns as {
			value: Record<string, unknown>;
		};
		expect(record.value).toMatchObject({ status: 'done', recipients: '', sentCount: 0 });
	});

	it("the batch's row keeps only who it was for: the skipped are neither sent nor not sent", () => {
		const record = byName(workflow, 'Record Outcome').parameters.columns as {
			value: Record<string, unknown>;
		};
		expect(record.value.recipients).toBe(
			"={{ $('One Item per Recipient').all().map((item) => item.json.phone).join(',') }}",
		);
	});
});
