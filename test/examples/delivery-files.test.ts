/**
 * The deliveries table as the shipped files write it, held to the contract other workflows read it
 * by (docs/deliveries.md; the SMS fallback for failed WhatsApp sends reads it): one table,
 * smsleopard_deliveries, with these columns and types, created by the campaign and by the trigger
 * workflow if missing; the batch writes its rows before it records the batch done; nothing here
 * writes `fallback` after a row exists. How the rows change is played in delivery-counts.test.ts.
 */
import { DELIVERIES_TABLE, DELIVERY_TEXT_COLUMNS } from '../queue/campaign/delivery-reports';
import { BATCHES, CAMPAIGN, type ExampleNode, byName, parseExample } from './campaign-code';

const TABLE = DELIVERIES_TABLE;
const TEXT = DELIVERY_TEXT_COLUMNS;
const TRIGGER_FILE = 'opt-outs-from-replies.json';

const written = (node: ExampleNode) =>
	(node.parameters.columns as { value: Record<string, unknown> }).value;
const tableOf = (node: ExampleNode) =>
	(node.parameters.dataTableId as { value?: string } | undefined)?.value;

describe.each([CAMPAIGN, TRIGGER_FILE])('examples/%s', (file) => {
	it('creates smsleopard_deliveries if missing, with the columns of the contract and their types', () => {
		const create = byName(parseExample(file), 'Create Deliveries Table If Missing');
		expect([create.typeVersion, create.onError, create.executeOnce]).toEqual([
			1.1,
			'continueRegularOutput',
			true,
		]);
		expect(create.parameters).toMatchObject({
			resource: 'table',
			operation: 'create',
			tableName: TABLE,
			options: { createIfNotExists: true },
		});
		const columns = (create.parameters.columns as { column: Array<{ name: string; type: string }> })
			.column;
		expect(Object.fromEntries(columns.map((column) => [column.name, column.type]))).toEqual({
			...Object.fromEntries(TEXT.map((name) => [name, 'string'])),
			rank: 'number',
		});
	});
});

describe.each(BATCHES)('examples/%s records each message it sent', (file) => {
	const workflow = parseExample(file);

	it('writes every column of the contract, accepted at rank 0, with fallback empty', () => {
		const record = byName(workflow, 'Record Deliveries');
		expect([tableOf(record), record.parameters.operation]).toEqual([TABLE, 'insert']);
		// Each row as Delivery Rows made it, one statement for the batch: no expression per column
		// and row (10,000 per batch of 1,000 took about 4 s of a worker's CPU), no rows read back.
		expect(record.parameters.columns).toMatchObject({ mappingMode: 'autoMapInputData' });
		expect(record.parameters.options).toMatchObject({ optimizeBulk: true });
		const rows = String(byName(workflow, 'Delivery Rows').parameters.jsCode);
		const made = /json: \{([^}]*)\}/.exec(rows)?.[1] ?? '';
		const keys = [...made.matchAll(/(\w+):/g)].map((match) => match[1]);
		expect(keys.sort()).toEqual([...TEXT, 'rank'].sort());
		expect(rows).toContain("status: 'accepted'");
		expect(rows).toContain('rank: 0');
		// Empty is null: what a Data table condition "is empty" finds (the SMS fallback looks for it).
		expect(rows).toContain('fallback: null');
		expect(rows).toContain(`channel: '${file.includes('sms') ? 'sms' : 'whatsapp'}'`);
	});

	it('writes the rows before the batch is recorded done: their branch is above Record Outcome, which n8n runs second', () => {
		// The branch reads the reports waiting for these rows, then writes the rows.
		const targets = workflow.connections['Send Campaign Message'].main[0].map((to) => to.node);
		expect(targets.sort()).toEqual(['Record Outcome', 'Waiting Reports']);
		expect(workflow.connections['Waiting Reports'].main[0].map((to) => to.node)).toEqual([
			'Delivery Rows',
		]);
		const y = (name: string) =>
			(byName(workflow, name) as unknown as { position: number[] }).position[1];
		expect(y('Waiting Reports')).toBeLessThan(y('Record Outcome'));
		expect(workflow.settings).toMatchObject({ executionOrder: 'v1' });
		// A table that cannot be written never stops the batch from recording who was sent.
		expect(byName(workflow, 'Record Deliveries').onError).toBe('continueRegularOutput');
	});
});

it('no node ever writes fallback into a row that exists, and reports change status, rank, reason and reportedAt only', () => {
	for (const file of [TRIGGER_FILE, ...BATCHES]) {
		const updates = parseExample(file).nodes.filter(
			(node) => tableOf(node) === TABLE && node.parameters.operation === 'update',
		);
		expect(updates.length).toBeGreaterThan(0);
		for (const update of updates) {
			expect(Object.keys(written(update)).sort()).toEqual(
				['rank', 'reason', 'reportedAt', 'status'].sort(),
			);
			// Only a higher rank changes a row: repeats and late reports never lower a status.
			const conditions = (
				update.parameters.filters as { conditions: Array<{ keyName: string; condition: string }> }
			).conditions;
			expect(conditions).toContainEqual(
				expect.objectContaining({ keyName: 'rank', condition: 'lt' }),
			);
			expect(update.parameters.matchType).toBe('allConditions');
		}
	}
});

it('the trigger workflow keeps failed executions only: one kept per report would fill the list and, pruned at 10,000, push out the campaign runs that failed', () => {
	expect(parseExample(TRIGGER_FILE).settings).toMatchObject({
		saveDataSuccessExecution: 'none',
		saveDataErrorExecution: 'all',
	});
	// A sender that is no phone number still shows: its execution fails, naming them.
	const end = byName(parseExample(TRIGGER_FILE), 'Sender Is No Phone Number');
	expect(end.type).toBe('n8n-nodes-base.stopAndError');
	expect(String(end.parameters.errorMessage)).toContain('$json.from');
});
