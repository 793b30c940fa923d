/**
 * `npm run bench -- <case> [<case> ...]`: the one runner of every benchmark (bench/cases.ts lists
 * them; `npm run bench -- --list` prints them). Cases of one runner asked for together share its
 * set-up. Each case's figures go to a small summary, bench/results/<case>.json (<case>.subset.json
 * when a setting narrowed the run), and its raw data to bench/results/raw/ (out of git).
 * Settings are environment variables, named at the top of each runner's file (BENCH_REPEATS, ...).
 */
import { execFileSync } from 'child_process';
import { cpus, totalmem } from 'os';
import * as path from 'path';

import { type BenchCase, CASES, CASE_SETS, type Runner } from './cases';
import { RAW_DIR, type Section, currentCommit, writeCaseSummary, writeJson } from './report';

const started = Date.now();

function usage(): string {
	const width = Math.max(...CASES.map((entry) => entry.name.length));
	return [
		'npm run bench -- <case> [<case> ...] [--runs N]',
		'',
		...CASES.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.what}`),
		'',
		...Object.entries(CASE_SETS).map(([name, names]) => `  ${name}: ${names.join(' ')}`),
	].join('\n');
}

/**
 * The cases asked for, sets expanded, each once, in the registry's order; the rest are arguments.
 * `--runs N` repeats each case N times (BENCH_REPEATS), its figures then shown with their spread.
 */
function parse(args: string[]): { cases: BenchCase[]; rest: string[] } {
	const names = new Set<string>();
	const rest: string[] = [];
	for (let index = 0; index < args.length; index++) {
		const arg = args[index];
		if (arg === '--runs') {
			const runs = Number(args[++index]);
			if (!Number.isInteger(runs) || runs < 1 || runs > 10)
				throw new Error(
					`--runs needs a whole number from 1 to 10, got ${args[index] ?? 'nothing'}`,
				);
			process.env.BENCH_REPEATS = String(runs);
		} else if (CASE_SETS[arg]) CASE_SETS[arg].forEach((name) => names.add(name));
		else if (CASES.some((entry) => entry.name === arg)) names.add(arg);
		else if (names.has('profile') && !arg.startsWith('-')) rest.push(arg);
		else throw new Error(`No case "${arg}". The cases:\n${usage()}`);
	}
	return { cases: CASES.filter((entry) => names.has(entry.name)), rest };
}

const machine = () => ({
	cpus: cpus().length,
	cpuModel: cpus()[0]?.model,
	memoryMb: Math.round(totalmem() / 1024 / 1024),
	node: process.version,
});

/** Runs `work` with console.log also kept, for the summary of a case that prints its own report. */
async function printing(work: () => Promise<unknown>): Promise<string[]> {
	const printed: string[] = [];
	const original = console.log;
	console.log = (...parts: unknown[]) => {
		printed.push(parts.map(String).join(' '));
		original(...parts);
	};
	try {
		await work();
	} finally {
		console.log = original;
	}
	return printed.flatMap((line) => line.split('\n')).slice(0, 400);
}

const summaryOf = (section: Section) => ({
	title: section.title,
	notes: section.notes,
	columns: section.columns,
	rows: section.rows,
	goals: section.goals,
});

async function runGroup(runner: Runner, cases: BenchCase[], rest: string[], command: string) {
	const names = cases.map((entry) => entry.name);
	const base = { command, generatedAt: new Date().toISOString(), commit: currentCommit() };
	const written: string[] = [];
	if (runner === 'node') {
		const { run } = await import('./node-cases');
		const result = await run(names);
		const conditions = { n8n: result.n8nVersion, repeats: result.repeats, machine: machine() };
		for (const [name, section] of Object.entries(result.sections)) {
			const summary = { case: name, ...base, narrowed: result.narrowed, conditions };
			written.push(writeCaseSummary({ ...summary, ...summaryOf(section) }, section.data));
		}
		// bench:table writes the docs' tables from this record of the node cases.
		writeJson(path.join(RAW_DIR, result.narrowed ? 'node.subset.json' : 'node.json'), {
			...base,
			n8n: result.n8nVersion,
			repeats: result.repeats,
			node: process.version,
			machine: machine(),
			totalSeconds: Math.round((Date.now() - started) / 1000),
			benchmarks: Object.fromEntries(
				Object.entries(result.sections).map(([name, section]) => [
					name,
					{ title: section.title, goals: section.goals, results: section.data },
				]),
			),
		});
	} else if (runner === 'campaign') {
		const { run, CAMPAIGN_CASES } = await import('./campaign');
		const { section, narrowed } = await run(names);
		for (const { name, label } of CAMPAIGN_CASES.filter((entry) => names.includes(entry.name))) {
			const mine = (text: string) => text === label || text.startsWith(`${label}:`);
			written.push(
				writeCaseSummary({
					case: name,
					...base,
					narrowed,
					conditions: { machine: machine() },
					...summaryOf(section),
					rows: section.rows.filter((row) => mine(String(row[0]))),
					goals: section.goals.filter((item) => mine(item.goal) || item.goal === `${label} ran`),
				}),
			);
		}
	} else {
		const modules: Record<
			Exclude<Runner, 'node' | 'campaign'>,
			() => Promise<{ run(args?: string[]): Promise<unknown> }>
		> = {
			pacing: () => import('./pacing-sweep'),
			pacingFamily: () => import('./pacing-family'),
			pacingWake: () => import('./pacing-wake'),
			executions: () => import('./executions'),
			profile: () => import('./profile'),
			uploadQueue: () => import('./upload-queue'),
			reports: () => import('./reports'),
		};
		const { run } = await modules[runner]();
		const printed = await printing(() => run(rest));
		const narrowed = Object.keys(process.env).some((name) => name.startsWith('BENCH_'));
		const conditions = {
			machine: machine(),
			settings: Object.fromEntries(
				Object.entries(process.env).filter(([name]) => name.startsWith('BENCH_')),
			),
		};
		written.push(writeCaseSummary({ case: names[0], ...base, narrowed, conditions, printed }));
	}
	for (const file of written) console.log(`Written to ${path.relative(process.cwd(), file)}.`);
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	if (args.length === 0 || args.includes('--list')) {
		console.log(usage());
		if (args.length === 0) process.exitCode = 1;
		return;
	}
	const { cases, rest } = parse(args);
	const command = `npm run bench -- ${args.join(' ')}`;
	if (cases.some((entry) => entry.n8n)) {
		const version = process.env.BENCH_N8N_VERSION ?? '2.8.4';
		execFileSync('bash', [path.join(__dirname, '../scripts/n8n/install-n8n.sh'), version], {
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	}
	const runners = [...new Set(cases.map((entry) => entry.runner))];
	for (const runner of runners)
		await runGroup(
			runner,
			cases.filter((entry) => entry.runner === runner),
			rest,
			command,
		);
	console.log(`${Math.round((Date.now() - started) / 1000)} s in all.`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
