/**
 * The campaign's Code nodes run as n8n's Code node runs them (their code read from the shipped
 * workflow files), with the outputs of the nodes they read given: what the unit tests of
 * test/examples/ play without a running n8n.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { runInNewContext } from 'vm';

import { EXAMPLES_DIR } from '../e2e/workflows/examples';

export interface ExampleNode {
	name: string;
	type: string;
	typeVersion?: number;
	position?: number[];
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string | null; name: string }>;
	onError?: string;
	executeOnce?: boolean;
	alwaysOutputData?: boolean;
}
export interface ExampleWorkflow {
	id?: string;
	name: string;
	nodes: ExampleNode[];
	connections: Record<string, { main: Array<Array<{ node: string }>> }>;
	settings?: Record<string, unknown>;
}
type Items = Array<{ json: Record<string, unknown> }>;

export const CAMPAIGN = 'campaign-100000-recipients.json';
/** The workflow the campaign's Plan the Campaign runs: Plan Batches and the nodes around it. */
export const PLAN = 'campaign-plan.json';
export const BATCHES = ['campaign-batch-whatsapp-template.json', 'campaign-batch-sms.json'];
export const SMS_FALLBACK = 'campaign-sms-fallback.json';
export const readExample = (file: string) => readFileSync(path.join(EXAMPLES_DIR, file), 'utf8');
export const parseExample = (file: string) => JSON.parse(readExample(file)) as ExampleWorkflow;
export const byName = (workflow: ExampleWorkflow, name: string) => {
	const found = workflow.nodes.find((entry) => entry.name === name);
	if (!found) throw new Error(`${workflow.name} has no node "${name}"`);
	return found;
};
/** A node of `file`; for the campaign, a node of its plan workflow too (Plan Batches and the rest). */
export const nodeOf = (file: string, name: string) => {
	const workflow = parseExample(file);
	if (file === CAMPAIGN && !workflow.nodes.some((entry) => entry.name === name))
		return byName(parseExample(PLAN), name);
	return byName(workflow, name);
};
const codeOf = (file: string, node: string) => String(nodeOf(file, node).parameters.jsCode);

/**
 * Runs a Code node's code with `$` answering from `outputs` (a node missing there: not executed) and
 * `$(name).params` from `workflow`'s nodes, as n8n reads a node's parameters.
 */
function runCode(
	code: string,
	outputs: Record<string, Items>,
	input: Items = [],
	workflow?: ExampleWorkflow,
): Items {
	const $ = (name: string) => ({
		isExecuted: outputs[name] !== undefined,
		first: () => outputs[name]?.[0],
		all: () => outputs[name] ?? [],
		params: workflow?.nodes.find((entry) => entry.name === name)?.parameters,
	});
	return runInNewContext(`(function () {\n${code}\n})()`, {
		$,
		$input: { all: () => input, first: () => input[0] },
		$execution: { id: '41' },
	}) as Items;
}

/** A row of smsleopard_opt_outs as the opt-out workflow writes it (all text). */
export interface OptOutRow {
	phone: string;
	status: 'opted out' | 'opted in';
	word?: string;
	at?: string;
	source?: string;
}

/**
 * The campaign's Plan Batches: `$('Check Start')`, `$('Claim Won')`, `$('Get Recipients')`,
 * `$('Get Opt-Outs')` (the opt-out list's rows) and `$input` (the campaign table's rows) given.
 */
export interface PlanInput {
	recipients: Items;
	rows?: Array<Record<string, unknown>>;
	optOuts?: OptOutRow[];
	settings?: Record<string, unknown>;
}
export function runPlan({ recipients, rows = [], optOuts = [], settings = {} }: PlanInput): Items {
	return runCode(
		codeOf(CAMPAIGN, 'Plan Batches'),
		{
			'Check Start': [
				{ json: { campaign: 'spring', batchSize: 1000, checkOnly: false, ...settings } },
			],
			'Claim Won': [{ json: { won: true } }],
			'Get Recipients': recipients,
			// With no row, n8n's Always Output Data gives one empty item.
			'Get Opt-Outs':
				optOuts.length > 0 ? optOuts.map((json) => ({ json: { ...json } })) : [{ json: {} }],
		},
		rows.map((json) => ({ json })),
	);
}

/**
 * A batch workflow's Who Gets the Message right after Take Batch took `recipients` (its row) and
 * Read Opt-Outs read `optOuts`: the one item Send, Skip or Stop routes (`recipients` when there is
 * someone to send to, or why not).
 */
export function runBatchRecipients(
	file: string,
	recipients: string[],
	optOuts: OptOutRow[],
	posted: Array<Record<string, unknown>> = recipients.map((phone) => ({ phone })),
	/** What Read Opt-Outs output instead of the rows (what it outputs when it failed). */
	readOutput?: Items,
): Items {
	return runCode(codeOf(file, 'Who Gets the Message'), {
		'Take Batch': [
			{ json: { status: 'sending (execution 41)', recipients: recipients.join(',') } },
		],
		'Read Opt-Outs':
			readOutput ??
			(optOuts.length > 0 ? optOuts.map((json) => ({ json: { ...json } })) : [{ json: {} }]),
		'Batch Webhook': [{ json: { body: { campaign: 'spring', batch: '7-1', recipients: posted } } }],
	});
}

/** The copy of the contract's normal form a Code node carries, as a function. */
/**
 * The batch's Batches Sharing the Limit on the rows Read Batches Sending gave (`error`: the read
 * failed, as n8n's continued error item): how many batches share Max Requests per Second.
 */
export function runBatchesSharing(
	file: string,
	rows: Array<Record<string, unknown>>,
	error = false,
): { batchesSending: number; readFailed: boolean } {
	const workflow = parseExample(file);
	const read = error
		? [{ json: {}, error: { message: 'relation does not exist' } }]
		: rows.map((json) => ({ json }));
	const [out] = runCode(
		String(byName(workflow, 'Batches Sharing the Limit').parameters.jsCode),
		{ 'Read Batches Sending': read as Items },
		[],
		workflow,
	);
	return out.json as { batchesSending: number; readFailed: boolean };
}

export function normalFormIn(file: string, node: string): (phone: unknown) => string {
	const code = codeOf(file, node);
	const from = code.indexOf('const normalForm = ');
	const to = code.indexOf('\n};\n', from);
	if (from < 0 || to < 0) throw new Error(`${node} of ${file} carries no normalForm`);
	return runInNewContext(`${code.slice(from, to + 3)}\nnormalForm`) as (phone: unknown) => string;
}

export const csvOf = (people: Array<Record<string, string>>) => ({
	json: {
		data: [
			Object.keys(people[0]).join(','),
			...people.map((person) => Object.values(person).join(',')),
		].join('\n'),
	},
});
export const peopleOf = (count: number, from = 0) =>
	Array.from({ length: count }, (_, index) => ({
		phone: `+2547${String(10_000_000 + from + index)}`,
		name: `Person ${from + index}`,
		city: 'Nairobi',
	}));

/**
 * The SMS fallback's People to Send right after Rows Won read `rows` (its claimed deliveries) and
 * Read Opt-Outs read `optOuts`: the people it hands to Send SMS.
 */
export function runFallbackPeople(
	rows: Array<Record<string, unknown>>,
	optOuts: OptOutRow[],
	readOutput?: Items,
): Items {
	return runCode(codeOf(SMS_FALLBACK, 'People to Send'), {
		'Rows Won': rows.length > 0 ? rows.map((json) => ({ json })) : [{ json: {} }],
		'Read Opt-Outs':
			readOutput ??
			(optOuts.length > 0 ? optOuts.map((json) => ({ json: { ...json } })) : [{ json: {} }]),
	});
}

/** Any Code node of an example, run with the outputs of the nodes it reads (see runCode). */
export const runExampleCode = (
	file: string,
	node: string,
	outputs: Record<string, Items>,
	input: Items = [],
): Items => runCode(codeOf(file, node), outputs, input);
