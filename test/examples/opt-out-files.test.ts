/**
 * examples/opt-outs-from-replies.json as a marketer imports it: what every example must be
 * (credential by name, no secret or address, a note saying what to change) and what makes it the
 * opt-out list of docs/opt-outs.md: the table and its five columns, one row per number (a row per
 * reply, then the rows of earlier messages removed), and no word list of its own (the trigger's optOut decides).
 * test/e2e/opt-outs.e2e.test.ts runs this very file in real n8n.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { OPT_IN_WORDS, OPT_OUT_WORDS } from '../../nodes/SmsLeopard/client';
import { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME } from '../e2e/workflows/examples';
import { expectShareable } from './shareable-file';

interface Node {
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string | null; name: string }>;
}

const FILE = 'opt-outs-from-replies.json';
const text = readFileSync(path.join(EXAMPLES_DIR, FILE), 'utf8');
const workflow = JSON.parse(text) as {
	id?: string;
	nodes: Node[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
};
const byType = (type: string) => workflow.nodes.filter((node) => node.type === type);
const notes = byType('n8n-nodes-base.stickyNote')
	.map((node) => String(node.parameters.content))
	.join('\n');
const COLUMNS = ['phone', 'status', 'word', 'at', 'source'];

describe(`examples/${FILE}`, () => {
	it('holds no secret, no server address and no workflow id; a note says what to change and names the credential', () => {
		expectShareable(text, workflow);
		expect(notes).toContain('What to change');
		expect(notes).toContain(EXAMPLE_CREDENTIAL_NAME);
	});

	it('starts with the SMSLeopard Trigger on SMS and WhatsApp messages, with the credential by name and only parameters it has', () => {
		const [trigger] = byType('n8n-nodes-smsleopard.smsLeopardTrigger');
		expect(trigger.typeVersion).toBe(2);
		expect(trigger.credentials).toEqual({
			smsLeopardApi: { id: null, name: EXAMPLE_CREDENTIAL_NAME },
		});
		// Delivery reports and WhatsApp statuses too: an account has one WhatsApp webhook URL
		// (docs/decisions/0012-one-trigger-workflow-for-replies-and-reports.md).
		expect(trigger.parameters.events).toEqual([
			'smsMessage',
			'whatsappMessage',
			'smsDeliveryReport',
			'whatsappStatus',
		]);
		const known = new Set(
			new SmsLeopardTrigger().description.properties.map((entry) => entry.name),
		);
		expect(Object.keys(trigger.parameters).filter((name) => !known.has(name))).toEqual([]);
		for (const node of workflow.nodes.filter((entry) => entry !== trigger))
			expect(node.credentials).toBeUndefined();
	});

	it('creates smsleopard_opt_outs with the five text columns if missing, and adds a row per reply (Older Rows then keeps one per phone)', () => {
		const tableNodes = byType('n8n-nodes-base.dataTable');
		const create = tableNodes.find((node) => node.parameters.operation === 'create');
		expect(create?.typeVersion).toBe(1.1);
		expect(create?.parameters).toMatchObject({
			tableName: 'smsleopard_opt_outs',
			columns: { column: COLUMNS.map((name) => ({ name, type: 'string' })) },
			options: { createIfNotExists: true },
		});
		const insert = tableNodes.find((node) => node.parameters.operation === 'insert');
		expect(insert?.parameters).toMatchObject({
			dataTableId: { mode: 'name', value: 'smsleopard_opt_outs' },
		});
		const written = (insert?.parameters.columns as { value: Record<string, string> }).value;
		expect(Object.keys(written).sort()).toEqual([...COLUMNS].sort());
	});

	it('keeps only messages the trigger marked optOut, and repeats no word of the list outside its notes', () => {
		const [filter] = byType('n8n-nodes-base.filter');
		expect(JSON.stringify(filter.parameters)).toContain('$json.optOut');
		const working = JSON.stringify(
			workflow.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote'),
		);
		// A word as a value: quoted, in any case ("stop", 'STOP'); field names such as optOut are no word.
		for (const word of [...OPT_OUT_WORDS, ...OPT_IN_WORDS]) {
			const quoted = new RegExp(`["'\\x60]${word}["'\\x60]`, 'i');
			expect({ word, inWorkflow: quoted.test(working) }).toEqual({
				word,
				inWorkflow: false,
			});
		}
	});

	it('every node is connected: trigger, filter, table, row, then the insert (and the removal of the rows of earlier messages) or the visible dead end', () => {
		const path = (from: string, output = 0) =>
			workflow.connections[from]?.main[output]?.map((link) => link.node);
		expect(path('SMSLeopard Trigger')).toEqual(['Opt-Out or Opt-In Word', 'Delivery Report']);
		expect(path('Opt-Out or Opt-In Word')).toEqual(['Create Opt-Out Table If Missing']);
		expect(path('Create Opt-Out Table If Missing')).toEqual(['Opt-Out Row']);
		expect(path('Opt-Out Row')).toEqual(['Number Readable?']);
		expect(path('Number Readable?', 0)).toEqual(['Record Opt-Out']);
		expect(path('Number Readable?', 1)).toEqual(['Sender Is No Phone Number']);
		expect(path('Record Opt-Out')).toEqual(['Numbers Written']);
		expect(path('Numbers Written')).toEqual(['Rows of the Number']);
		expect(path('Rows of the Number')).toEqual(['Older Rows']);
		expect(path('Older Rows')).toEqual(['Remove Older Rows']);
	});
});
