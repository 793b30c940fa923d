/**
 * Small builders for n8n workflow JSON, so the end-to-end workflows and the demo read as what they
 * do: which nodes, with which parameters, connected in which order.
 */
import { randomUUID } from 'crypto';
import type { WorkflowJson } from '../harness';

export const NODE_TYPE = 'n8n-nodes-smsleopard.smsLeopard';
export const CREDENTIAL_TYPE = 'smsLeopardApi';

export interface WorkflowNode {
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
	onError?: string;
	[key: string]: unknown;
}

let counter = 0;

/** Any n8n node; `extra` holds node settings such as credentials or onError. */
export function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
	extra: Partial<WorkflowNode> = {},
): WorkflowNode {
	counter++;
	return {
		id: `node-${counter}-${name.toLowerCase().replace(/\W+/g, '-')}`,
		name,
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		...extra,
	};
}

/**
 * A Webhook trigger on its production path: `lastNode` answers once the execution finished (so the
 * caller can time it and read its end), `onReceived` at once.
 */
export function webhook(
	path: string,
	responseMode: 'lastNode' | 'onReceived',
	name = 'Webhook',
): WorkflowNode {
	return node(
		name,
		'n8n-nodes-base.webhook',
		2,
		{ httpMethod: 'POST', path, responseMode, responseData: 'noData', options: {} },
		{ webhookId: randomUUID() },
	);
}

export function trigger(name = 'Start'): WorkflowNode {
	return node(name, 'n8n-nodes-base.manualTrigger', 1, {});
}

/** A Code node returning `items` (JavaScript source of an array of n8n items). */
export function code(name: string, itemsSource: string): WorkflowNode {
	return node(name, 'n8n-nodes-base.code', 2, { jsCode: `return ${itemsSource};` });
}

export function smsLeopard(
	name: string,
	credential: { id: string; name: string },
	parameters: Record<string, unknown>,
	settings: {
		onError?: 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow';
		executeOnce?: boolean;
		/** The node's Settings > Always Output Data. */
		alwaysOutputData?: boolean;
	} = {},
): WorkflowNode {
	return {
		...node(name, NODE_TYPE, 1, parameters),
		credentials: { [CREDENTIAL_TYPE]: credential },
		...settings,
	};
}

/** A chain's start that continues from one output of a node: `[fromOutput(send, 1), alert]`. */
export class OutputOf {
	constructor(
		readonly from: WorkflowNode,
		readonly output: number,
	) {}
}

/** Output `output` of `from`: 0 the first; under "Continue (using error output)", 1 the errors. */
export const fromOutput = (from: WorkflowNode, output: number): OutputOf =>
	new OutputOf(from, output);

/**
 * Connects each chain in order; a node may start several chains (parallel branches). A chain joins
 * a node's first output unless it starts with `fromOutput(node, n)`.
 */
export function workflow(
	name: string,
	chains: Array<Array<WorkflowNode | OutputOf>>,
): WorkflowJson {
	const nodes = new Map<string, WorkflowNode>();
	const connections: Record<
		string,
		{ main: Array<Array<{ node: string; type: string; index: number }>> }
	> = {};
	chains.forEach((chain, row) => {
		chain.forEach((entry, column) => {
			const member = entry instanceof OutputOf ? entry.from : entry;
			if (!nodes.has(member.name)) {
				member.position = [column * 240, row * 200];
				nodes.set(member.name, member);
			}
			const before = chain[column - 1];
			if (!before) return;
			const [previous, output] =
				before instanceof OutputOf ? [before.from, before.output] : [before, 0];
			const main = (connections[previous.name] ??= { main: [] }).main;
			while (main.length <= output) main.push([]);
			const targets = main[output];
			if (!targets.some((target) => target.node === member.name)) {
				targets.push({ node: member.name, type: 'main', index: 0 });
			}
		});
	});
	return { name, nodes: [...nodes.values()], connections, settings: { executionOrder: 'v1' } };
}

/** A resource locator value; `cachedResultName` is what the editor shows for a "From List" choice. */
export const locator = (value: string, mode: 'list' | 'id' = 'id', cachedResultName?: string) => ({
	__rl: true,
	mode,
	value,
	...(cachedResultName ? { cachedResultName } : {}),
});
