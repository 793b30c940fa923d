/**
 * The campaign pair of examples/ as a marketer imports it: what example-files.test.ts asks of every
 * example (credential by name, no secret or address, notes saying what to change, only parameters
 * the node has), plus what makes the pair work together and rerun safely. Its behaviour in queue
 * mode is proven by test/queue/campaign.queue.test.ts, which runs these very files.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME } from '../e2e/workflows/examples';
import { expectShareable } from './shareable-file';

const NODE_TYPE = 'n8n-nodes-smsleopard.smsLeopard';
const knownParameters = new Set(new SmsLeopard().description.properties.map((entry) => entry.name));

interface Node {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string | null; name: string }>;
	onError?: string;
	executeOnce?: boolean;
}
interface Workflow {
	id?: string;
	name: string;
	nodes: Node[];
	settings?: Record<string, unknown>;
}

const CAMPAIGN = 'campaign-100000-recipients.json';
const BATCHES = ['campaign-batch-whatsapp-template.json', 'campaign-batch-sms.json'];
const read = (file: string) => readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
const parse = (file: string) => JSON.parse(read(file)) as Workflow;
const byName = (workflow: Workflow, name: string) => {
	const found = workflow.nodes.find((entry) => entry.name === name);
	if (!found) throw new Error(`${workflow.name} has no node "${name}"`);
	return found;
};
const notes = (workflow: Workflow) =>
	workflow.nodes
		.filter((entry) => entry.type === 'n8n-nodes-base.stickyNote')
		.map((entry) => String(entry.parameters.content))
		.join('\n');

describe.each([CAMPAIGN, ...BATCHES])('examples/%s', (file) => {
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
		for (const entry of workflow.nodes) {
			if (entry.type !== NODE_TYPE) {
				expect(entry.credentials).toBeUndefined();
				continue;
			}
			expect(entry.credentials).toEqual({
				smsLeopardApi: { id: null, name: EXAMPLE_CREDENTIAL_NAME },
			});
			const unknown = Object.keys(entry.parameters).filter((name) => !knownParameters.has(name));
			expect(unknown).toEqual([]);
		}
	});

	it('reads and writes the campaign data table by its name, the one the note tells to create', () => {
		const tables = workflow.nodes.filter((entry) => entry.type === 'n8n-nodes-base.dataTable');
		expect(tables.length).toBeGreaterThan(0);
		for (const entry of tables) {
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
		expect((take.parameters.columns as { value: unknown }).value).toEqual({ status: 'sending' });
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

it('the campaign posts to the WhatsApp batch workflow by default, and names the SMS one in a note', () => {
	const campaign = parse(CAMPAIGN);
	const settings = JSON.stringify(byName(campaign, 'Campaign Settings').parameters);
	const batchPath = byName(parse(BATCHES[0]), 'Batch Webhook').parameters.path as string;
	expect(settings).toContain(`/webhook/${batchPath}'`);
	expect(notes(campaign)).toContain(
		String(byName(parse(BATCHES[1]), 'Batch Webhook').parameters.path),
	);
	// The campaign webhook answers with the summary of what it queued.
	expect(byName(campaign, 'Campaign Webhook').parameters).toMatchObject({
		path: 'smsleopard-campaign',
		responseMode: 'lastNode',
		responseData: 'firstEntryJson',
	});
});
