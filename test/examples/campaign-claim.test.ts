/**
 * Who plans a campaign when runs start it at once (issue 50), checked on every order of steps the
 * storage allows rather than on the one a test machine happens to give. The campaign's claim nodes
 * (Find Claim, Create Claim Row or Claim Campaign, Read Claim, Claim Won, wait, withdraw, release)
 * are played by a model of n8n's data table as Postgres runs it: an insert takes its id when it
 * starts and is seen by others only once it commits, so ids need not follow commit order; a
 * conditional update or a delete is one atomic statement over committed rows. SQLite, which commits
 * each statement before the next starts, is the special case where every insert commits at once.
 * Claim Won is the workflow's own code, run as its Code node runs it.
 *
 * Thousands of seeded random schedules per case: never two runs planning at once, and when no run
 * dies, one of the starts plans.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { runInNewContext } from 'vm';

import { EXAMPLES_DIR } from '../e2e/workflows/examples';
import { random } from './seeded-random';

interface Node {
	name: string;
	parameters: Record<string, unknown>;
}
const campaign = JSON.parse(
	readFileSync(path.join(EXAMPLES_DIR, 'campaign-100000-recipients.json'), 'utf8'),
) as { nodes: Node[]; connections: Record<string, { main: Array<Array<{ node: string }>> }> };
const CLAIM_WON = String(
	campaign.nodes.find((node) => node.name === 'Claim Won')!.parameters.jsCode,
);

interface Row {
	id: number;
	status: string;
	committed: boolean;
}
interface Decision {
	won: boolean;
	wait?: boolean;
}

/** Claim Won as its Code node runs it, compiled once: the rows Read Claim returned in, its item out. */
const claimWonCode = runInNewContext(
	`(function ($input, $, $runIndex) {\n${CLAIM_WON}\n})`,
	{},
) as (...context: unknown[]) => Array<{ json: Decision }>;
function claimWon(rows: Row[], mine: string, runIndex: number): Decision {
	const [result] = claimWonCode(
		{ all: () => rows.map(({ id, status }) => ({ json: { id, status, batch: 'claim' } })) },
		() => ({ first: () => ({ json: { claimStatus: mine } }) }),
		runIndex,
	);
	return result.json;
}

type Step =
	| 'find'
	| 'insert'
	| 'commit'
	| 'update'
	| 'read'
	| 'waiting'
	| 'planning'
	| 'release'
	| 'withdraw'
	| 'done';
interface Run {
	name: string;
	step: Step;
	rowId?: number;
	rounds: number;
	outcome?: 'planned' | 'stood back' | 'died';
}

interface Schedule {
	starts: number;
	/** Claim rows the campaign had before the starts (its earlier run's, freed). */
	existing: string[];
	/** Each step, the chance in 100 that a run dies there (n8n stopped mid-run). */
	deathPercent: number;
	/** Inserts commit the moment they run (SQLite) or as a step of their own (Postgres). */
	commitsAtOnce: boolean;
	seed: number;
}

/**
 * Plays one schedule. A run's wait (one second in the workflow, far longer than a statement) ends
 * only when every other live run is waiting, done or planning: the scheduler may not use it to
 * starve the others, which is all the wait is for.
 */
function play({ starts, existing, deathPercent, commitsAtOnce, seed }: Schedule) {
	const pick = random(seed);
	let nextId = 1;
	const rows: Row[] = existing.map((status) => ({ id: nextId++, status, committed: true }));
	const runs: Run[] = Array.from({ length: starts }, (_, index) => ({
		name: `planning until 2026-12-01T00:00:00.000Z (execution ${index + 1})`,
		step: 'find',
		rounds: 0,
	}));
	const visible = () => rows.filter((row) => row.committed);
	let mostPlanningAtOnce = 0;
	const planningNow = () => runs.filter((run) => run.step === 'planning' || run.step === 'release');
	for (let guard = 0; guard < 10_000; guard++) {
		const live = runs.filter((run) => run.step !== 'done');
		if (live.length === 0) break;
		const movable = live.filter(
			(run) =>
				run.step !== 'waiting' ||
				live.every((other) => other === run || ['waiting', 'planning'].includes(other.step)),
		);
		const run = movable[pick(movable.length)];
		if (run.step !== 'planning' && run.step !== 'release' && pick(100) < deathPercent) {
			// An insert that never committed is rolled back; a committed row stays behind, a claim
			// that only its expiry frees.
			if (run.step === 'commit')
				rows.splice(
					rows.findIndex((row) => row.id === run.rowId),
					1,
				);
			[run.step, run.outcome] = ['done', 'died'];
			continue;
		}
		switch (run.step) {
			case 'find':
				run.step = visible().length === 0 ? 'insert' : 'update';
				break;
			case 'insert':
				run.rowId = nextId++;
				rows.push({ id: run.rowId, status: run.name, committed: commitsAtOnce });
				run.step = commitsAtOnce ? 'read' : 'commit';
				break;
			case 'commit':
				rows.find((row) => row.id === run.rowId)!.committed = true;
				run.step = 'read';
				break;
			case 'update':
				// Claim Campaign: status below the expiry bound ('free' or expired) becomes ours.
				for (const row of visible()) if (row.status === 'free') row.status = run.name;
				run.step = 'read';
				break;
			case 'read':
			case 'waiting': {
				const decision = claimWon(
					visible().map((row) => ({ ...row })),
					run.name,
					run.rounds++,
				);
				run.step = decision.won ? 'planning' : decision.wait ? 'waiting' : 'withdraw';
				mostPlanningAtOnce = Math.max(mostPlanningAtOnce, planningNow().length);
				break;
			}
			case 'planning':
				run.step = 'release';
				break;
			case 'release':
				for (const row of visible()) if (row.status === run.name) row.status = 'free';
				[run.step, run.outcome] = ['done', 'planned'];
				break;
			case 'withdraw':
				for (const row of visible().filter((entry) => entry.status === run.name))
					rows.splice(rows.indexOf(row), 1);
				[run.step, run.outcome] = ['done', 'stood back'];
				break;
		}
	}
	return {
		mostPlanningAtOnce,
		planned: runs.filter((run) => run.outcome === 'planned').length,
		died: runs.filter((run) => run.outcome === 'died').length,
		claimsLeft: rows.map((row) => row.status),
	};
}

const SEEDS = Array.from({ length: 3000 }, (_, index) => index + 1);
type Result = ReturnType<typeof play>;
/** The seeds whose schedule broke `holds` (empty when every schedule kept it), to replay one. */
function brokenBy(schedule: Omit<Schedule, 'seed'>) {
	const results = SEEDS.map((seed) => ({ seed, ...play({ ...schedule, seed }) }));
	return (holds: (result: Result) => boolean) =>
		results
			.filter((result) => !holds(result))
			.map((result) => result.seed)
			.slice(0, 5);
}

describe.each([
	['Postgres (ids need not follow commit order)', false],
	['SQLite (each insert commits at once)', true],
])('the claim on %s', (_storage, commitsAtOnce) => {
	it.each([2, 3, 5])(
		'%i first starts of a new campaign: never two planning at once, one plans, and only its claim row is left (freed)',
		(starts) => {
			const seeds = brokenBy({ starts, existing: [], deathPercent: 0, commitsAtOnce });
			expect(seeds((result) => result.mostPlanningAtOnce === 1)).toEqual([]);
			expect(seeds((result) => result.planned >= 1)).toEqual([]);
			expect(seeds((result) => result.claimsLeft.join() === 'free')).toEqual([]);
		},
	);

	it.each([2, 5])(
		'%i starts of a campaign run before: never two planning at once, one plans',
		(starts) => {
			const seeds = brokenBy({ starts, existing: ['free'], deathPercent: 0, commitsAtOnce });
			expect(seeds((result) => result.mostPlanningAtOnce === 1)).toEqual([]);
			expect(seeds((result) => result.planned >= 1)).toEqual([]);
		},
	);

	it.each([[[]], [['free']]])(
		'runs that die at any step (table before: %j) never leave two planning at once',
		(existing) => {
			const seeds = brokenBy({ starts: 4, existing, deathPercent: 15, commitsAtOnce });
			expect(seeds((result) => result.mostPlanningAtOnce <= 1)).toEqual([]);
			// The schedules do reach deaths, and plans despite them.
			expect(seeds((result) => !(result.died > 0 && result.planned > 0)).length).toBe(5);
		},
	);
});

it('a waiting start reads the claim again through a one-second Wait, and planning starts only from Won?', () => {
	const next = (name: string, output = 0) =>
		(campaign.connections[name]?.main[output] ?? []).map((link) => link.node);
	expect(next('Won?', 0)).toEqual(['Answer Accepted']);
	expect(next('Won?', 1)).toEqual(['Others Still Deciding?']);
	expect(next('Others Still Deciding?', 0)).toEqual(['Let Other Starts Decide']);
	expect(next('Others Still Deciding?', 1)).toEqual(['Withdraw Own Claim Row']);
	expect(next('Let Other Starts Decide')).toEqual(['Read Claim']);
	expect(next('Read Claim')).toEqual(['Claim Won']);
	const wait = campaign.nodes.find((node) => node.name === 'Let Other Starts Decide')!;
	expect(wait.parameters).toEqual({ amount: 1, unit: 'seconds' });
});
