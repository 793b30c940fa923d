/**
 * A STOP and a START from one number that arrive out of order (a provider retrying one of them, two
 * workers taking them at once) must leave the number's row with the later one by the message's own
 * time (`at`), never by arrival order (issue 54). The opt-out workflow's write (Record Opt-Out, Rows
 * of the Number, Older Rows, Remove Older Rows) is played here on thousands of generated orders of
 * steps the storage allows, with the nodes' own settings and Older Rows' own code: a model of n8n's
 * data table as Postgres runs it (an insert takes its id when it starts and is seen by others only
 * once it commits) and as SQLite does (each statement commits at once).
 */
import fc from 'fast-check';
import { runInNewContext } from 'vm';

import { byName, parseExample } from './campaign-code';
import { seededRandom as random } from './seeded-random';

const workflow = parseExample('opt-outs-from-replies.json');
const record = byName(workflow, 'Record Opt-Out');
const remove = byName(workflow, 'Remove Older Rows');
const olderRowsCode = runInNewContext(
	`(function ($input) {\n${String(byName(workflow, 'Older Rows').parameters.jsCode)}\n})`,
	{},
) as (input: unknown) => Array<{ json: Record<string, unknown> }>;

interface Reply {
	phone: string;
	status: 'opted out' | 'opted in';
	word: string;
	at: string;
	source: string;
}
interface Row extends Reply {
	id: number;
	committed: boolean;
}
interface Condition {
	keyName: string;
	condition: string;
	keyValue?: string;
}

/** A Data table node's value or condition expression (`={{ ... }}`), evaluated for one item. */
const compiled = new Map<string, (json: Record<string, unknown>) => unknown>();
function evaluate(expression: unknown, json: Record<string, unknown>): unknown {
	const text = String(expression ?? '');
	const match = /^=\{\{([\s\S]*)\}\}$/.exec(text);
	if (!match) return text;
	if (!compiled.has(text))
		compiled.set(
			text,
			runInNewContext(`(function ($json) { return (${match[1]}); })`, {}) as (
				json: Record<string, unknown>,
			) => unknown,
		);
	return compiled.get(text)!(json);
}
function matches(row: Row, conditions: Condition[], json: Record<string, unknown>): boolean {
	return conditions.every(({ keyName, condition, keyValue }) => {
		const have = (row as unknown as Record<string, unknown>)[keyName];
		const want = evaluate(keyValue, json);
		const [a, b] = keyName === 'id' ? [Number(have), Number(want)] : [String(have), String(want)];
		if (condition === 'eq') return a === b;
		if (condition === 'gt') return a > b;
		if (condition === 'lt') return a < b;
		throw new Error(`the model has no condition ${condition}`);
	});
}
const conditionsOf = (node: { parameters: Record<string, unknown> }) =>
	(node.parameters.filters as { conditions?: Condition[] } | undefined)?.conditions ?? [];
const valuesOf = (json: Record<string, unknown>) =>
	Object.fromEntries(
		Object.entries((record.parameters.columns as { value: Record<string, string> }).value).map(
			([name, expression]) => [name, String(evaluate(expression, json))],
		),
	) as unknown as Reply;

type Step = 'write' | 'commit' | 'read' | 'remove' | 'done';
interface Run {
	reply: Reply;
	step: Step;
	rowId?: number;
	toRemove: Array<Record<string, unknown>>;
}

/** One schedule: the replies' runs interleaved step by step as `pick` chooses. */
function play(replies: Reply[], commitsAtOnce: boolean, pick: (below: number) => number): Row[] {
	let nextId = 1;
	const rows: Row[] = [];
	const visible = () => rows.filter((row) => row.committed);
	const runs: Run[] = replies.map((reply) => ({ reply, step: 'write', toRemove: [] }));
	for (let guard = 0; guard < 10_000; guard++) {
		const live = runs.filter((run) => run.step !== 'done');
		if (live.length === 0) break;
		const run = live[pick(live.length)];
		const json = run.reply as unknown as Record<string, unknown>;
		switch (run.step) {
			case 'write': {
				const values = valuesOf(json);
				if (record.parameters.operation === 'insert') {
					run.rowId = nextId++;
					rows.push({ ...values, id: run.rowId, committed: commitsAtOnce });
					run.step = commitsAtOnce ? 'read' : 'commit';
				} else if (record.parameters.operation === 'upsert') {
					const found = visible().filter((row) => matches(row, conditionsOf(record), json));
					for (const row of found) Object.assign(row, values);
					if (found.length === 0) rows.push({ ...values, id: nextId++, committed: true });
					run.step = 'read';
				} else throw new Error(`the model has no operation ${String(record.parameters.operation)}`);
				break;
			}
			case 'commit':
				rows.find((row) => row.id === run.rowId)!.committed = true;
				run.step = 'read';
				break;
			case 'read': {
				// Rows of the Number, then Older Rows' own code on what it read.
				const read = visible()
					.filter((row) => row.phone === run.reply.phone)
					.map(({ committed: _committed, ...row }) => ({ json: { ...row } }));
				run.toRemove = olderRowsCode({ all: () => read }).map((item) => item.json);
				run.step = 'remove';
				break;
			}
			case 'remove': {
				// One delete statement per item, each atomic.
				const item = run.toRemove.shift();
				if (item === undefined) {
					run.step = 'done';
					break;
				}
				for (const row of visible().filter((entry) => matches(entry, conditionsOf(remove), item)))
					rows.splice(rows.indexOf(row), 1);
				break;
			}
		}
	}
	return rows;
}

/** The state a number must end in: its latest message by `at`, opted out on a tie. */
function latest(replies: Reply[]): Pick<Reply, 'status' | 'at'> {
	const best = [...replies].sort((a, b) =>
		a.at !== b.at
			? a.at < b.at
				? 1
				: -1
			: a.status === b.status
				? 0
				: a.status === 'opted out'
					? -1
					: 1,
	)[0];
	return { status: best.status, at: best.at };
}

const PHONE = '+254712000301';
const reply = fc
	.record({
		out: fc.boolean(),
		// Few distinct seconds, so ties of one second (WhatsApp's timestamps) come up often.
		second: fc.integer({ min: 0, max: 4 }),
	})
	.map(({ out, second }): Reply => ({
		phone: PHONE,
		status: out ? 'opted out' : 'opted in',
		word: out ? 'STOP' : 'START',
		at: `2026-11-29T10:00:0${second}.000Z`,
		source: 'whatsapp',
	}));
// Replies in arrival order, some posted twice (a provider's retry), and how the runs interleave.
const arrivals = fc
	.tuple(fc.array(reply, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(4), { maxLength: 3 }))
	.map(([replies, repeats]) => [
		...replies,
		...repeats.filter((at) => at < replies.length).map((at) => replies[at]),
	]);

describe.each([
	['Postgres (ids need not follow commit order)', false],
	['SQLite (each insert commits at once)', true],
])("a number's replies in any order, on %s", (_storage, commitsAtOnce) => {
	it('leave exactly one row, the latest message by its own time (opted out on a tie), whatever the arrival order', () => {
		fc.assert(
			fc.property(arrivals, fc.integer({ min: 1, max: 2 ** 31 - 1 }), (replies, seed) => {
				const rows = play(replies, commitsAtOnce, random(seed));
				expect(rows.map(({ status, at }) => ({ status, at }))).toEqual([latest(replies)]);
			}),
			{ numRuns: 3000 },
		);
	});

	it('a START sent after a STOP but arriving first, each alone: the row ends opted in', () => {
		const stop = {
			phone: PHONE,
			status: 'opted out',
			word: 'STOP',
			at: '2026-11-29T10:00:01.000Z',
			source: 'sms',
		} as const;
		const start = {
			...stop,
			status: 'opted in',
			word: 'START',
			at: '2026-11-29T10:00:02.000Z',
		} as const;
		// One run after the other, START first: arrival order says opted out, the messages' time in.
		const rows = play([start, stop], commitsAtOnce, () => 0);
		expect(rows.map((row) => [row.status, row.word])).toEqual([['opted in', 'START']]);
	});
});
