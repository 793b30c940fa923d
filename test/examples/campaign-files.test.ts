/**
 * The campaign pair of examples/ as a marketer imports it: what example-files.test.ts asks of every
 * example (credential by name, no secret or address, notes saying what to change, only parameters
 * the node has), plus what makes the pair work together and rerun safely. Its behaviour in queue
 * mode is proven by test/queue/campaign.queue.test.ts, which runs these very files.
 */
import { runInNewContext } from 'vm';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { EXAMPLE_CREDENTIAL_NAME } from '../e2e/workflows/examples';
import { CAMPAIGN_FORM_CREDENTIAL, CAMPAIGN_KEY_CREDENTIAL } from '../queue/campaign/campaign-kit';
import {
	BATCHES,
	CAMPAIGN,
	PLAN,
	type ExampleWorkflow as Workflow,
	byName,
	csvOf,
	parseExample as parse,
	peopleOf,
	readExample as read,
	runPlan,
} from './campaign-code';
import { expectShareable } from './shareable-file';

const NODE_TYPE = 'n8n-nodes-smsleopard.smsLeopard';
const knownParameters = new Set(new SmsLeopard().description.properties.map((entry) => entry.name));

const notes = (workflow: Workflow) =>
	workflow.nodes
		.filter((entry) => entry.type === 'n8n-nodes-base.stickyNote')
		.map((entry) => String(entry.parameters.content))
		.join('\n');

describe.each([CAMPAIGN, PLAN, ...BATCHES])('examples/%s', (file) => {
	const workflow = parse(file);

	it('is named a campaign, holds no secret, no server address and no workflow id', () => {
		expect(file).toContain('campaign');
		expect(workflow.name.toLowerCase()).toContain('campaign');
		const text = read(file);
		expectShareable(text, workflow);
	});

	it('says in a note what to change; SMSLeopard nodes use the credential by name, with only parameters the node has', () => {
		expect(notes(workflow)).toContain('What to change');
		expect(notes(workflow)).toContain(EXAMPLE_CREDENTIAL_NAME);
		expect(notes(workflow)).toContain(CAMPAIGN_KEY_CREDENTIAL);
		if (workflow.nodes.some((entry) => entry.type === 'n8n-nodes-base.formTrigger'))
			expect(notes(workflow)).toContain(CAMPAIGN_FORM_CREDENTIAL);
		for (const entry of workflow.nodes) {
			if (entry.type !== NODE_TYPE) {
				// By name only: the campaign's key on its webhooks and on what posts to them, the form's
				// login on the Campaign Form (Basic Auth, so a stranger cannot start a campaign).
				if (entry.type === 'n8n-nodes-base.formTrigger')
					expect([entry.parameters.authentication, entry.credentials]).toEqual([
						'basicAuth',
						{ httpBasicAuth: { id: null, name: CAMPAIGN_FORM_CREDENTIAL } },
					]);
				else if (entry.credentials !== undefined)
					expect(entry.credentials).toEqual({
						httpHeaderAuth: { id: null, name: CAMPAIGN_KEY_CREDENTIAL },
					});
				continue;
			}
			expect(entry.credentials).toEqual({
				smsLeopardApi: { id: null, name: EXAMPLE_CREDENTIAL_NAME },
			});
			const unknown = Object.keys(entry.parameters).filter((name) => !knownParameters.has(name));
			expect(unknown).toEqual([]);
		}
	});

	it('every webhook asks for the campaign key (Header Auth): a post without it starts nothing', () => {
		const hooks = workflow.nodes.filter((entry) => entry.type === 'n8n-nodes-base.webhook');
		// The plan is started by the campaign's Plan the Campaign only: no webhook of its own.
		expect(hooks.length).toBe(file === PLAN ? 0 : 1);
		for (const hook of hooks) {
			expect(hook.parameters.authentication).toBe('headerAuth');
			expect(hook.credentials).toEqual({
				httpHeaderAuth: { id: null, name: CAMPAIGN_KEY_CREDENTIAL },
			});
		}
	});

	it('reads and writes the campaign data table by its name, the one the campaign creates; only reads the opt-out list; reads whole tables once per run', () => {
		const rowNodes = workflow.nodes.filter(
			(entry) => entry.type === 'n8n-nodes-base.dataTable' && entry.parameters.resource === 'row',
		);
		// The deliveries (docs/deliveries.md): by name too; a read of many rows once per run.
		const deliveries = rowNodes.filter(
			(entry) =>
				(entry.parameters.dataTableId as { value: string }).value === 'smsleopard_deliveries',
		);
		for (const entry of deliveries) {
			expect(entry.parameters.dataTableId).toEqual({
				__rl: true,
				mode: 'name',
				value: 'smsleopard_deliveries',
			});
			if (entry.parameters.operation === 'get') expect(entry.executeOnce).toBe(true);
		}
		const tables = rowNodes.filter((entry) => !deliveries.includes(entry));
		expect(tables.length).toBeGreaterThan(0);
		const optOutReads = tables.filter((entry) => entry.name.endsWith('Opt-Outs'));
		// Read once per run (in the plan) or per batch (executeOnce), never per recipient.
		const expected = file === CAMPAIGN ? 0 : 1;
		expect(optOutReads.map((entry) => [entry.parameters, entry.executeOnce])).toEqual(
			Array(expected).fill([
				{
					resource: 'row',
					operation: 'get',
					dataTableId: { __rl: true, mode: 'name', value: 'smsleopard_opt_outs' },
					returnAll: true,
				},
				true,
			]),
		);
		for (const entry of tables.filter((table) => !optOutReads.includes(table))) {
			expect(entry.parameters.dataTableId).toEqual({
				__rl: true,
				mode: 'name',
				value: 'smsleopard_campaigns',
			});
		}
	});
});

describe.each(BATCHES)('examples/%s as the batch workflow', (file) => {
	const workflow = parse(file);
	const send = workflow.nodes.find((entry) => entry.type === NODE_TYPE)!;

	it('answers its webhook at once, so the main queues the batch for any worker', () => {
		const hook = byName(workflow, 'Batch Webhook');
		expect(hook.parameters).toMatchObject({ httpMethod: 'POST', responseMode: 'onReceived' });
		expect(hook.parameters.path).toMatch(/^smsleopard-campaign-batch/);
	});

	it('takes a batch only while it is queued, so a batch posted twice is sent once', () => {
		const take = byName(workflow, 'Take Batch');
		expect(take.parameters).toMatchObject({ operation: 'update', matchType: 'allConditions' });
		expect(take.parameters.filters).toEqual({
			conditions: expect.arrayContaining([
				{ keyName: 'status', condition: 'eq', keyValue: 'queued' },
			]),
		});
		// The taker writes its execution into the row: only the run the row names sends.
		expect((take.parameters.columns as { value: unknown }).value).toEqual({
			status: "={{ 'sending (execution ' + $execution.id + ')' }}",
		});
		expect(String(byName(workflow, 'Who Gets the Message').parameters.jsCode)).toContain(
			'`sending (execution ${$execution.id})`',
		);
	});

	it('sends in summary mode and continues on errors, so one write records the whole batch', () => {
		expect(send.onError).toBe('continueRegularOutput');
		expect(send.parameters.requestOptions).toMatchObject({ output: 'summary' });
		const record = byName(workflow, 'Record Outcome');
		expect(record.executeOnce).toBe(true);
		expect((record.parameters.columns as { value: { status: string } }).value.status).toBe('done');
	});

	it('keeps failed batch executions only: the data table is the record', () => {
		expect(workflow.settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'all',
		});
	});
});

it('the campaign keeps its failed runs and its runs from the editor, not 12 MB per successful production run', () => {
	const campaign = parse(CAMPAIGN);
	expect(campaign.settings).toMatchObject({
		saveDataSuccessExecution: 'none',
		saveDataErrorExecution: 'all',
	});
	// Left to n8n's default (saved), so a run from the editor stays in its list.
	expect(campaign.settings).not.toHaveProperty('saveManualExecutions');
	expect(notes(campaign)).toContain('checkOnly');
});

describe('the plan, a workflow of its own (examples/campaign-plan.json)', () => {
	const campaign = parse(CAMPAIGN);
	const plan = parse(PLAN);
	const into = (workflow: Workflow, target: string) =>
		Object.entries(workflow.connections).flatMap(([from, outputs]) =>
			outputs.main.flatMap((links, index) =>
				(links ?? []).filter((link) => link.node === target).map(() => `${from}[${index}]`),
			),
		);

	it("is run by Plan the Campaign from n8n's list, waited for, once with one item: picked by the owner, so n8n marks it until then", () => {
		expect(byName(campaign, 'Plan the Campaign')).toMatchObject({
			type: 'n8n-nodes-base.executeWorkflow',
			parameters: {
				workflowId: { __rl: true, mode: 'list', value: '' },
				mode: 'once',
				options: { waitForSubWorkflow: true },
			},
			onError: 'continueErrorOutput',
		});
		// A new run, a check and a run that lost the claim all ask the plan where the campaign stands.
		expect(into(campaign, 'Plan Input').sort()).toEqual([
			'Answer Accepted[0]',
			'Check Only?[0]',
			'Withdraw Own Claim Row[0]',
		]);
		expect(campaign.connections['Plan the Campaign'].main.map((links) => links[0].node)).toEqual([
			'Plan Made?',
			'Plan Failed',
		]);
		expect(into(campaign, 'Release Claim After Error').sort()).toEqual([
			'Plan Failed[0]',
			'Plan Made?[1]',
		]);
		expect(notes(campaign)).toContain('examples/campaign-plan.json');
	});

	it('keeps no successful execution, so n8n never writes the list and the batches; a failed one is kept', () => {
		expect(plan.settings).toMatchObject({
			saveDataSuccessExecution: 'none',
			saveDataErrorExecution: 'all',
		});
		expect(plan.nodes.find((entry) => entry.type.endsWith('executeWorkflowTrigger'))).toMatchObject(
			{
				name: 'Plan Asked For',
				parameters: { inputSource: 'passthrough' },
			},
		);
		// Nothing of the plan is left in the campaign: its nodes read their settings from the plan's own
		// Check Start and Claim Won, which give back what Plan Input passed.
		for (const name of ['Get Recipients', 'Plan Batches', 'Record Batch', 'Queue Batch'])
			expect(campaign.nodes.some((entry) => entry.name === name)).toBe(false);
		expect(String(byName(plan, 'Check Start').parameters.jsCode)).toContain(
			"$('Plan Asked For').first().json.start",
		);
	});

	it('reads the list once per run, whatever the opt-out list holds', () => {
		expect(byName(plan, 'Get Recipients').executeOnce).toBe(true);
		expect(into(plan, 'Get Recipients')).toEqual(['Opt-Out List Read?[0]']);
		// A run that lost the claim reads neither list: only the record, for where it stands.
		expect(plan.connections['Read the List?'].main.map((links) => links[0].node)).toEqual([
			'Get Opt-Outs',
			'Get Campaign Record',
		]);
	});
});

it('one setting chooses WhatsApp or SMS; Campaign Settings holds plain values, no expression to edit', () => {
	const campaign = parse(CAMPAIGN);
	const assignments = (
		byName(campaign, 'Campaign Settings').parameters.assignments as {
			assignments: Array<{ name: string; value: unknown }>;
		}
	).assignments;
	expect(assignments.filter((entry) => String(entry.value).startsWith('='))).toEqual([]);
	expect(assignments.find((entry) => entry.name === 'channel')?.value).toBe('whatsapp');
	const check = String(byName(campaign, 'Check Start').parameters.jsCode);
	for (const file of BATCHES) {
		const batchPath = String(byName(parse(file), 'Batch Webhook').parameters.path);
		expect(check).toContain(`'/webhook/${batchPath}'`);
		expect(notes(campaign)).toContain(batchPath);
	}
	// The campaign webhook answers from the workflow: accepted at once, or where it stands.
	expect(byName(campaign, 'Campaign Webhook').parameters).toMatchObject({
		path: 'smsleopard-campaign',
		responseMode: 'responseNode',
	});
	const table = campaign.nodes.find((entry) => entry.parameters.resource === 'table')!;
	expect(table.parameters).toMatchObject({
		operation: 'create',
		tableName: 'smsleopard_campaigns',
		options: { createIfNotExists: true },
	});
});

/** The campaign's Check Start code run as its Code node runs it, on a post or a manual start. */
function runCheckStart(input: Record<string, unknown>, settings: Record<string, unknown> = {}) {
	const code = String(byName(parse(CAMPAIGN), 'Check Start').parameters.jsCode);
	const owner = {
		campaign: 'spring',
		listLink: '',
		channel: 'whatsapp',
		batchSize: 1000,
		claimMinutes: 15,
		callerMaySetListLink: false,
		batchWorkflowUrl: '',
		...settings,
	};
	return runInNewContext(`(function () {\n${code}\n})()`, {
		$input: { first: () => ({ json: { ...owner, ...input } }) },
		$: () => ({ first: () => ({ json: owner }) }),
		$execution: { id: '7', resumeUrl: 'n8n.example/webhook-waiting/7' },
	})[0].json as Record<string, unknown>;
}
const post = (body: unknown) => ({ headers: {}, webhookUrl: 'n8n.example/webhook/x', body });

describe('who may set what (Check Start)', () => {
	it('a caller may set the campaign and checkOnly; where batches go, the list and anything else are refused, naming the field', () => {
		expect(runCheckStart(post({ campaign: 'sale', checkOnly: true }))).toMatchObject({
			ok: true,
			campaign: 'sale',
			checkOnly: true,
			batchWorkflowUrl: 'n8n.example/webhook/smsleopard-campaign-batch',
		});
		for (const field of ['batchWorkflowUrl', 'recipientsUrl', 'batchSize']) {
			const refused = runCheckStart(post({ campaign: 'sale', [field]: 'x' }));
			expect(refused.ok).toBe(false);
			expect(String(refused.error)).toContain(field);
		}
		expect(runCheckStart(post({ campaign: 'a,b' })).ok).toBe(false);
		expect(runCheckStart(post('campaign=sale')).ok).toBe(false);
	});

	it('the list link only where the owner allows it; SMS by one setting; a manual start uses the settings', () => {
		expect(
			runCheckStart(post({ campaign: 'sale', recipientsUrl: 'list.csv' }), {
				callerMaySetListLink: true,
			}),
		).toMatchObject({ ok: true, recipientsUrl: 'list.csv' });
		expect(runCheckStart({}, { channel: 'sms', listLink: 'mine.csv' })).toMatchObject({
			ok: true,
			campaign: 'spring',
			recipientsUrl: 'mine.csv',
			batchWorkflowUrl: 'n8n.example/webhook/smsleopard-campaign-batch-sms',
		});
		expect(String(runCheckStart({}, { channel: 'fax' }).error)).toContain('channel');
	});

	it("a claim's status sorts below the expiry bound only once it has expired", () => {
		const now = runCheckStart({});
		expect(String(now.claimStatus) > String(now.expiredBelow)).toBe(true);
		expect('free' < String(now.expiredBelow)).toBe(true);
		const expired = runCheckStart({}, { claimMinutes: 1 });
		const later = new Date(Date.parse(String(expired.claimedUntil)) + 1000).toISOString();
		expect(String(expired.claimStatus) < `planning until ${later}`).toBe(true);
	});
});

describe("the campaign's plan (Plan Batches, Record Batch, Queue Batch)", () => {
	it('hands each batch on as text, not as 1,000 objects: the numbers for its row, the request to post', () => {
		const people = peopleOf(2500);
		const items = runPlan({ recipients: [csvOf(people)] });
		const batches = items.filter((item) => item.json.kind === 'new');
		expect(batches.map((item) => item.json.batch)).toEqual(['41-1', '41-2', '41-3']);
		batches.forEach((item, index) => {
			const slice = people.slice(index * 1000, index * 1000 + 1000);
			// Only strings and numbers: n8n copies each object of a node's output on the worker.
			expect(Object.values(item.json).every((value) => typeof value !== 'object')).toBe(true);
			expect(item.json).toMatchObject({
				campaign: 'spring',
				recipientCount: slice.length,
				phones: slice.map((person) => person.phone).join(','),
			});
			// The batch workflow's webhook gets what it always got: every column of each person.
			expect(JSON.parse(String(item.json.body))).toEqual({
				campaign: 'spring',
				batch: item.json.batch,
				recipients: slice,
			});
		});
		expect(items[items.length - 1].json).toMatchObject({
			kind: 'summary',
			recipients: 2500,
			queuedNow: 2500,
			batchesQueuedNow: 3,
		});
	});

	it('plans a list of 300,000 from one CSV, and from one JSON list (no call stack overflow)', () => {
		const people = peopleOf(300_000);
		for (const recipients of [[csvOf(people)], [{ json: { recipients: people } }]]) {
			const items = runPlan({ recipients });
			// The first 8,000 in 4 batches of 2,000, 288 batches of 1,000, the last 4,000 in 16 of 250.
			expect(items).toHaveLength(4 + 288 + 16 + 1);
			expect(items[308].json).toMatchObject({
				recipients: 300_000,
				queuedNow: 300_000,
				batchesQueuedNow: 308,
			});
			expect(JSON.parse(String(items[307].json.body)).recipients).toEqual(people.slice(299_750));
		}
	});

	it('ends a campaign of more than 8 batches in quarter batches, so the workers finish together, and opens one of 16 whole batches or more with 4 of twice the size; everyone once, in order', () => {
		// How many batches of 2,000 open the campaign, then of 1,000, then of 250 or less.
		for (const [count, doubled, whole, quarters, lastSize] of [
			[8000, 0, 8, 0, 1000],
			[8001, 0, 4, 17, 1],
			[10_500, 0, 6, 18, 250],
			[19_999, 0, 15, 20, 249],
			[20_000, 4, 8, 16, 250],
			[100_000, 4, 88, 16, 250],
		]) {
			const people = peopleOf(count);
			const batches = runPlan({ recipients: [csvOf(people)] }).filter(
				(item) => item.json.kind === 'new',
			);
			const sizes = batches.map((item) => Number(item.json.recipientCount));
			expect(sizes).toHaveLength(doubled + whole + quarters);
			expect(sizes.slice(0, doubled)).toEqual(Array(doubled).fill(2000));
			expect(
				sizes
					.slice(doubled, doubled + whole)
					.every((size, index) => size === 1000 || index === whole - 1),
			).toBe(true);
			expect(sizes.slice(doubled + whole).every((size) => size <= 250)).toBe(true);
			expect(sizes.at(-1)).toBe(lastSize);
			expect(batches.map((item) => item.json.batch)).toEqual(
				batches.map((_, index) => `41-${index + 1}`),
			);
			const sent = batches.flatMap(
				(item) => (JSON.parse(String(item.json.body)) as { recipients: unknown[] }).recipients,
			);
			expect(sent).toEqual(people);
		}
	});

	it('posts a waiting batch again the same way, and skips the sent and the maybe sent', () => {
		const people = peopleOf(30);
		const rows = [
			{
				batch: '7-1',
				status: 'done',
				recipients: people
					.slice(0, 10)
					.map((person) => person.phone)
					.join(','),
				sent: people
					.slice(0, 9)
					.map((person) => `${person.phone}:wamid.${person.phone}`)
					.join(','),
				maybeSent: people[9].phone,
				notSent: '',
			},
			{
				batch: '7-2',
				status: 'queued',
				recipients: people
					.slice(10, 15)
					.map((person) => person.phone)
					.join(','),
			},
		];
		// One item per person (a sheet, a CRM) works as the CSV does.
		const items = runPlan({
			recipients: people.map((person) => ({ json: person })),
			rows,
			settings: { batchSize: 100 },
		});
		const again = items.find((item) => item.json.kind === 'again')!;
		expect(again.json).toMatchObject({
			batch: '7-2',
			recipientCount: 5,
			phones: rows[1].recipients,
		});
		expect(JSON.parse(String(again.json.body))).toEqual({
			campaign: 'spring',
			batch: '7-2',
			recipients: people.slice(10, 15),
		});
		const fresh = items.find((item) => item.json.kind === 'new')!;
		expect(JSON.parse(String(fresh.json.body)).recipients).toEqual(people.slice(15));
		expect(items[items.length - 1].json).toMatchObject({
			sent: 9,
			maybeSent: 1,
			queuedNow: 15,
			waitingBatchesPostedAgain: 1,
		});
	});

	it('posts new batches one at a time, 20 ms apart, so the first ones are queued before the rest arrive', () => {
		// All at once, n8n's main took 112 posts together and queued the first batch about 1 s later:
		// the campaign's first send came 2.80-2.86 s after the post, 2.43-2.56 s spaced
		// (BENCH_TIMELINE=1 npm run bench -- campaignTemplate).
		expect(byName(parse(PLAN), 'Queue Batch').parameters.options).toEqual({
			batching: { batch: { batchSize: 1, batchInterval: 20 } },
		});
	});

	it("records the batch's numbers, then posts its request as it is (raw JSON), new or waiting", () => {
		const campaign = parse(PLAN);
		const record = byName(campaign, 'Record Batch').parameters.columns as {
			value: Record<string, string>;
		};
		expect(record.value).toMatchObject({ status: 'queued', recipients: '={{ $json.phones }}' });
		for (const [name, body] of [
			['Queue Batch', "={{ $('Plan Batches').item.json.body }}"],
			['Queue Waiting Batch Again', '={{ $json.body }}'],
		]) {
			expect(byName(campaign, name).parameters).toMatchObject({
				method: 'POST',
				sendBody: true,
				contentType: 'raw',
				rawContentType: 'application/json',
				body,
			});
		}
	});
});
