/**
 * The shipped trigger workflow (examples/opt-outs-from-replies.json) as a marketer imports it,
 * with the demo's credential picked: the browser test opens it as they would.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import { DEMO_CREDENTIAL } from '../../scripts/demo-support';
import type { WorkflowJson } from '../e2e/harness';
import { EXAMPLES_DIR } from '../e2e/workflows/examples';

export const SHIPPED_TRIGGER_ID = 'smsleopardReports1';

export function shippedTriggerWorkflow(): WorkflowJson {
	const workflow = JSON.parse(
		readFileSync(path.join(EXAMPLES_DIR, 'opt-outs-from-replies.json'), 'utf8'),
	) as WorkflowJson & { nodes: Array<{ credentials?: Record<string, unknown> }> };
	for (const node of workflow.nodes)
		if (node.credentials)
			node.credentials = Object.fromEntries(
				Object.keys(node.credentials).map((type) => [type, { ...DEMO_CREDENTIAL }]),
			);
	return { ...workflow, id: SHIPPED_TRIGGER_ID };
}
