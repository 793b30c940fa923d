/**
 * The shipped workflows' nodes played as n8n 2 plays them, on a model of its data tables, so the
 * deliveries' rank rule can be checked on every order of steps two executions can take. n8n's v1
 * order: a node runs once with all its items; its children run depth first, the higher one on the
 * canvas first. A Data table node's statement per item is one atomic step over committed rows (each
 * node commits before the next starts), and the scheduler may switch executions between steps. Code
 * nodes run their own code from the file; Data table filters and columns are read from the file, so
 * changing a condition there changes what this model does.
 */
import { runInNewContext } from 'vm';

import type { ExampleNode, ExampleWorkflow } from './campaign-code';

export type Json = Record<string, unknown>;
export interface Item {
	json: Json;
}
export interface Row extends Json {
	id: number;
	createdAt: string;
	updatedAt: string;
}

const BASE = Date.parse('2026-11-29T10:00:00.000Z');

/** The data tables by name, with one clock (a second per step) for createdAt and updatedAt. */
export class Tables {
	private readonly tables = new Map<string, Row[]>();
	private nextId = 1;
	tick = 0;
	/**
	 * Statements per table that read the whole table: a filter that does not pin one row by its id
	 * (n8n's data tables index the id only, so Postgres reads every row for any other filter).
	 */
	readonly wholeReads = new Map<string, number>();
	/** Tables whose reads and writes fail (deleted, or never made on n8n 1.x). */
	readonly broken = new Set<string>();

	now(): string {
		return new Date(BASE + this.tick * 1000).toISOString();
	}
	rows(name: string): Row[] {
		if (!this.tables.has(name)) this.tables.set(name, []);
		return this.tables.get(name)!;
	}
	insert(name: string, data: Json): Row {
		const row = { ...data, id: this.nextId++, createdAt: this.now(), updatedAt: this.now() };
		this.rows(name).push(row);
		return row;
	}
}

interface Condition {
	keyName: string;
	condition: string;
	keyValue?: unknown;
}

type Outputs = Record<string, Item[]>;
type Context = { outputs: Outputs; tables: Tables; executionId: string };

type Compiled = (...scope: unknown[]) => unknown;
const compiled = new Map<string, Compiled>();
/** Code compiled once into a function of the names n8n gives it (a fresh context each time is slow). */
function compile(parameters: string, body: string): Compiled {
	const key = `${parameters}\n${body}`;
	if (!compiled.has(key))
		compiled.set(key, runInNewContext(`(function (${parameters}) {\n${body}\n})`) as Compiled);
	return compiled.get(key)!;
}

/** `={{ ... }}` evaluated with `$json` and `$('Node')`; plain values as they are. */
function evaluate(value: unknown, json: Json, context: Context): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	const template = value.slice(1);
	const scope = [
		json,
		(name: string) => nodeAccess(name, context),
		{ toISO: () => context.tables.now() },
		{ id: context.executionId },
	];
	const run = (expression: string) =>
		compile('$json, $, $now, $execution', `return (${expression});`)(...scope);
	const whole = /^\{\{([\s\S]*)\}\}$/.exec(template.trim());
	if (whole && !whole[1].includes('{{')) return run(whole[1]);
	return template.replace(/\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
		String(run(expression)),
	);
}

function nodeAccess(name: string, { outputs }: Context) {
	return {
		isExecuted: outputs[name] !== undefined,
		first: () => outputs[name]?.[0],
		last: () => outputs[name]?.[outputs[name].length - 1],
		all: () => outputs[name] ?? [],
	};
}

const isDateColumn = (key: string) => key === 'createdAt' || key === 'updatedAt';

/** A filter condition as n8n's data-table repository turns it into SQL (NULL never compares). */
function matches(row: Row, condition: Condition, value: unknown): boolean {
	const cell = row[condition.keyName];
	if (condition.condition === 'isEmpty') return cell === null || cell === undefined;
	if (condition.condition === 'isNotEmpty') return cell !== null && cell !== undefined;
	if (condition.condition === 'eq' && value === null) return cell === null || cell === undefined;
	if (condition.condition === 'neq' && value === null) return cell !== null && cell !== undefined;
	if (condition.condition === 'neq') return cell === null || cell === undefined || cell !== value;
	if (cell === null || cell === undefined) return false;
	const [a, b] = isDateColumn(condition.keyName)
		? [Date.parse(String(cell)), Date.parse(String(value))]
		: typeof cell === 'number'
			? [cell, Number(value)]
			: [String(cell), String(value)];
	switch (condition.condition) {
		case 'eq':
			return a === b;
		case 'lt':
			return a < b;
		case 'lte':
			return a <= b;
		case 'gt':
			return a > b;
		case 'gte':
			return a >= b;
		default:
			throw new Error(`the model knows no condition ${condition.condition}`);
	}
}

function filterOf(node: ExampleNode, json: Json, context: Context): (row: Row) => boolean {
	const conditions =
		(node.parameters.filters as { conditions?: Condition[] } | undefined)?.conditions ?? [];
	const resolved = conditions.map((entry) => {
		const value = evaluate(entry.keyValue, json, context);
		// SQL: = '' never matches a cell left empty (NULL); the files must say isEmpty.
		if ((entry.condition === 'eq' || entry.condition === 'neq') && (value ?? '') === '')
			throw new Error(`${node.name}: ${entry.keyName} ${entry.condition} an empty value`);
		return { entry, value };
	});
	const all = node.parameters.matchType === 'allConditions';
	return (row) =>
		all
			? resolved.every(({ entry, value }) => matches(row, entry, value))
			: resolved.some(({ entry, value }) => matches(row, entry, value));
}

/** A filter that pins one row by its id (all conditions, one of them id equals): an index look-up. */
function byId(node: ExampleNode): boolean {
	const conditions =
		(node.parameters.filters as { conditions?: Condition[] } | undefined)?.conditions ?? [];
	return (
		node.parameters.matchType === 'allConditions' &&
		conditions.some((entry) => entry.keyName === 'id' && entry.condition === 'eq')
	);
}

/** n8n's own columns of every row: an automatic mapping leaves them out (DataTable addRow.js). */
const SYSTEM_COLUMNS = ['id', 'createdAt', 'updatedAt'];

function columnsOf(node: ExampleNode, json: Json, context: Context): Json {
	const { mappingMode, value } = node.parameters.columns as { mappingMode?: string; value: Json };
	// "Map Each Column Automatically": the item's own fields, no expression per column.
	if (mappingMode === 'autoMapInputData') {
		return Object.fromEntries(
			Object.entries(json).filter(([key]) => !SYSTEM_COLUMNS.includes(key)),
		);
	}
	return Object.fromEntries(
		Object.entries(value).map(([key, given]) => [key, evaluate(given, json, context)]),
	);
}

const tableOf = (node: ExampleNode) =>
	String((node.parameters.dataTableId as { value: string }).value);
const copy = (row: Row): Item => ({ json: { ...row } });

/** A Data table node: one step per statement (per item, one for a bulk insert). */
function* dataTable(node: ExampleNode, items: Item[], context: Context): Generator<void, Item[]> {
	const { tables } = context;
	if (node.parameters.resource === 'table') return items.slice(0, 1).map(() => ({ json: {} }));
	const operation = String(node.parameters.operation);
	if (tables.broken.has(tableOf(node))) {
		if (node.onError !== 'continueRegularOutput') throw new Error(`${node.name}: no such table`);
		// n8n's Data table node continues on an error with the item it was given.
		return node.executeOnce ? items.slice(0, 1) : items;
	}
	const table = tables.rows(tableOf(node));
	const each = node.executeOnce ? items.slice(0, 1) : items;
	const out: Item[] = [];
	if (operation === 'insert') {
		const inserted = each.map((item) =>
			tables.insert(tableOf(node), columnsOf(node, item.json, context)),
		);
		tables.tick++;
		yield;
		const bulk = (node.parameters.options as { optimizeBulk?: boolean }).optimizeBulk;
		return bulk ? [{ json: { success: true } }] : inserted.map(copy);
	}
	for (const item of each) {
		const match = filterOf(node, item.json, context);
		if (!byId(node))
			tables.wholeReads.set(tableOf(node), (tables.wholeReads.get(tableOf(node)) ?? 0) + 1);
		const found = table.filter(match);
		if (operation === 'get') {
			const limit = node.parameters.returnAll
				? Infinity
				: Number(evaluate(node.parameters.limit ?? 50, item.json, context));
			out.push(...found.slice(0, limit).map(copy));
		} else if (operation === 'update') {
			const data = columnsOf(node, item.json, context);
			for (const row of found) Object.assign(row, data, { updatedAt: tables.now() });
			out.push(...found.map(copy));
		} else if (operation === 'deleteRows') {
			for (const row of found) table.splice(table.indexOf(row), 1);
			out.push(...found.map(copy));
		} else if (operation === 'rowExists') {
			if (found.length > 0) out.push(item);
		} else if (operation === 'rowNotExists') {
			if (found.length === 0) out.push(item);
		} else throw new Error(`the model knows no Data table operation ${operation}`);
		tables.tick++;
		yield;
	}
	return out;
}

interface Operator {
	type: string;
	operation: string;
}
interface IfCondition {
	leftValue: string;
	operator: Operator;
}

function conditionHolds(condition: IfCondition, json: Json, context: Context): boolean {
	const value = evaluate(condition.leftValue, json, context);
	const { type, operation } = condition.operator;
	if (type === 'boolean' && operation === 'true') return value === true;
	if (operation === 'exists') return value !== undefined && value !== null;
	throw new Error(`the model knows no operator ${type} ${operation}`);
}

const conditionsOf = (node: ExampleNode) =>
	(node.parameters.conditions as { conditions: IfCondition[] }).conditions;

/** Summarize without split fields: concatenate and count, as n8n's Summarize 1.1 does. */
function summarize(node: ExampleNode, items: Item[]): Item[] {
	const values = (
		node.parameters.fieldsToSummarize as {
			values: Array<{ aggregation: string; field: string; separateBy?: string }>;
		}
	).values;
	const json: Json = {};
	for (const { aggregation, field, separateBy } of values) {
		const cells = items.map((item) => item.json[field]);
		if (aggregation === 'concatenate')
			json[`concatenated_${field}`] = cells
				.map((cell) => (cell === undefined ? 'undefined' : cell === null ? 'null' : String(cell)))
				.join(separateBy ?? ',');
		else if (aggregation === 'count')
			json[`count_${field}`] = cells.filter(
				(cell) => cell !== undefined && cell !== null && cell !== '',
			).length;
		else throw new Error(`the model knows no aggregation ${aggregation}`);
	}
	return [{ json }];
}

function runCode(node: ExampleNode, items: Item[], context: Context): Item[] {
	// A copy of each item, as n8n's task runner hands the code its data.
	const copies = () => items.map((item) => ({ json: { ...item.json } }));
	return compile('$, $input, $execution', String(node.parameters.jsCode))(
		(name: string) => nodeAccess(name, context),
		{ all: copies, first: () => copies()[0], last: () => copies()[items.length - 1] },
		{ id: context.executionId },
	) as Item[];
}

/**
 * Execute Workflow with the workflow given in the node (source "parameter"), run once with all
 * items: the sub-workflow from its Execute Workflow Trigger on the same tables, its steps among the
 * parent's; its output is what its last node (one no other follows) gave.
 */
function* subWorkflow(node: ExampleNode, items: Item[], context: Context): Generator<void, Item[]> {
	if (node.parameters.source !== 'parameter' || node.parameters.mode !== 'once')
		throw new Error(`${node.name}: the model runs only a workflow given in the node, once`);
	const workflow = JSON.parse(String(node.parameters.workflowJson)) as ExampleWorkflow;
	const trigger = workflow.nodes.find((each) => each.type.endsWith('.executeWorkflowTrigger'));
	if (!trigger) throw new Error(`${node.name}: its workflow has no Execute Workflow Trigger`);
	const outputs = yield* execution(
		workflow,
		trigger.name,
		items.map((item) => ({ json: { ...item.json } })),
		{},
		context.tables,
		[],
		context.executionId,
	);
	const last = workflow.nodes.filter(
		(each) => outputs[each.name] && !workflow.connections[each.name],
	);
	return last.flatMap((each) => outputs[each.name]);
}

/** One node: its items on each output. */
function* runNode(node: ExampleNode, items: Item[], context: Context): Generator<void, Item[][]> {
	switch (node.type) {
		case 'n8n-nodes-base.dataTable': {
			const out = yield* dataTable(node, items, context);
			return [out.length === 0 && node.alwaysOutputData ? [{ json: {} }] : out];
		}
		case 'n8n-nodes-base.code':
			return [runCode(node, items, context)];
		case 'n8n-nodes-base.filter':
			return [
				items.filter((item) =>
					conditionsOf(node).every((entry) => conditionHolds(entry, item.json, context)),
				),
			];
		case 'n8n-nodes-base.if': {
			const holds = (item: Item) =>
				conditionsOf(node).every((entry) => conditionHolds(entry, item.json, context));
			return [items.filter(holds), items.filter((item) => !holds(item))];
		}
		case 'n8n-nodes-base.set': {
			const assignments = (
				node.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
			).assignments;
			return [
				items.map((item) => ({
					json: Object.fromEntries(
						assignments.map((entry) => [entry.name, evaluate(entry.value, item.json, context)]),
					),
				})),
			];
		}
		case 'n8n-nodes-base.summarize':
			return [summarize(node, items)];
		case 'n8n-nodes-base.respondToWebhook':
			return [items];
		case 'n8n-nodes-base.executeWorkflow':
			return [yield* subWorkflow(node, items, context)];
		default:
			throw new Error(`the model does not play ${node.type} (${node.name})`);
	}
}

/**
 * An execution from `start` (whose output is `items`), with the outputs of nodes before it given:
 * steps as a generator (one per statement), the outputs of every node it ran at the end. Nodes in
 * `stopAt` are not run (the part of the workflow the model leaves out).
 */
export function* execution(
	workflow: ExampleWorkflow,
	start: string,
	items: Item[],
	given: Outputs,
	tables: Tables,
	stopAt: string[] = [],
	executionId = '41',
): Generator<void, Outputs> {
	const context: Context = { outputs: { ...given, [start]: items }, tables, executionId };
	const byName = new Map(workflow.nodes.map((node) => [node.name, node]));
	const stack: Array<{ node: string; items: Item[] }> = [];
	const addChildren = (from: string, outputs: Item[][]) => {
		const next = outputs.flatMap((out, index) =>
			out.length === 0
				? []
				: (workflow.connections[from]?.main[index] ?? []).map((link) => ({
						node: link.node,
						items: out,
					})),
		);
		// n8n's v1 order: the highest on the canvas first, then from the left.
		const position = (name: string) => byName.get(name)?.position ?? [0, 0];
		next.sort(
			(a, b) =>
				position(a.node)[1] - position(b.node)[1] || position(a.node)[0] - position(b.node)[0],
		);
		stack.unshift(...next.filter((entry) => !stopAt.includes(entry.node)));
	};
	addChildren(start, [items]);
	while (stack.length > 0) {
		const { node: name, items: input } = stack.shift()!;
		const node = byName.get(name);
		if (!node) throw new Error(`${workflow.name} has no node ${name}`);
		const outputs = yield* runNode(node, input, context);
		context.outputs[name] = outputs.flat();
		addChildren(name, outputs);
	}
	return context.outputs;
}

/** Runs executions to their ends, one step at a time, in the order `pick` chooses. */
export function interleave(
	runs: Array<Generator<void, Outputs>>,
	pick: (live: number) => number,
): Outputs[] {
	const results: Outputs[] = new Array(runs.length);
	const live = runs.map((run, index) => ({ run, index }));
	while (live.length > 0) {
		const chosen = pick(live.length);
		const { run, index } = live[chosen];
		const step = run.next();
		if (step.done) {
			results[index] = step.value;
			live.splice(chosen, 1);
		}
	}
	return results;
}
