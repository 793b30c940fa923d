// The example workflows of examples/ as shipped, read for the tests that import and run them.
import { readFileSync } from 'fs';
import * as path from 'path';

import type { WorkflowJson } from '../harness';

export const EXAMPLES_DIR = path.join(__dirname, '..', '..', '..', 'examples');

/** The credential name every example refers to (no id: n8n resolves it by name on save). */
export const EXAMPLE_CREDENTIAL_NAME = 'SMSLeopard account';

/**
 * The examples started by a form. The campaign files (examples/campaign-*.json) are not here: they
 * need n8n's workers to mean anything (batches as queued jobs, a data table as the record), so
 * test/queue/campaign.queue.test.ts runs them in queue mode and test/examples/campaign-files.test.ts
 * checks them as files.
 */
export const EXAMPLE_FILES = [
	'send-invoice-to-customer-sheet.json',
	'welcome-new-contact.json',
	'clean-up-contacts.json',
] as const;
export type ExampleFile = (typeof EXAMPLE_FILES)[number];

export interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id?: string | null; name: string }>;
}

export interface ExampleWorkflow extends WorkflowJson {
	nodes: ExampleNode[];
}

export function readExample(file: ExampleFile): ExampleWorkflow {
	return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as ExampleWorkflow;
}

/** The sample data shipped next to the workflows (the CSVs the sticky notes point to). */
export function readSample(file: string): string {
	return readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
}

/** The Form Trigger's path (Options > Form Path): its production URL is `<n8n>/form/<path>`. */
export function formPath(workflow: { nodes: ExampleNode[] }): string {
	const form = workflow.nodes.find((entry) => entry.type === 'n8n-nodes-base.formTrigger');
	const path = (form?.parameters.options as { path?: string } | undefined)?.path;
	if (!path) throw new Error('the example has no Form Trigger with a Form Path');
	return path;
}
