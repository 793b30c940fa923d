/**
 * The shipped trigger workflow (examples/opt-outs-from-replies.json) as a marketer imports it,
 * with the demo's credential picked: the browser test opens it as they would.
 */
import { DEMO_CREDENTIAL } from '../../scripts/demo-support';
import type { WorkflowJson } from '../e2e/harness';
import { parseExample } from '../examples/campaign-code';

export const SHIPPED_TRIGGER_ID = 'smsleopardReports1';

export function shippedTriggerWorkflow(): WorkflowJson {
	const workflow = parseExample('opt-outs-from-replies.json');
	for (const node of workflow.nodes)
		if (node.credentials)
			node.credentials = Object.fromEntries(
				Object.keys(node.credentials).map((type) => [type, { ...DEMO_CREDENTIAL }]),
			);
	return { ...workflow, id: SHIPPED_TRIGGER_ID };
}
