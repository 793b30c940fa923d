/**
 * How the results are shown: one plain-text table per benchmark, goals with PASS/MISS, and the same
 * figures as JSON.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, writeFileSync } from 'fs';
import * as path from 'path';

export interface Goal {
	goal: string;
	/** The measured figure, as shown. */
	actual: string;
	pass: boolean;
}

export interface Section {
	title: string;
	/** Conditions of the measurement (n8n version, latency, ...), one line each. */
	notes: string[];
	columns: string[];
	rows: Array<Array<string | number>>;
	goals: Goal[];
	/** Everything measured, for the JSON. */
	data: unknown;
}

export function goal(text: string, actual: string, pass: boolean): Goal {
	return { goal: text, actual, pass };
}

/** A number for a table cell: fixed digits, or "n/a" when not measured. */
export function num(value: number, digits = 0): string {
	return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function table(columns: string[], rows: Array<Array<string | number>>): string {
	const cells = [columns, ...rows.map((row) => row.map(String))];
	const widths = columns.map((_, column) =>
		Math.max(...cells.map((row) => (row[column] ?? '').length)),
	);
	// Columns of figures (cells starting with a number) right-aligned, text left-aligned.
	const numeric = columns.map((_, column) =>
		rows.every((row) => /^([-+]?\d|n\/a)/.test(String(row[column] ?? ''))),
	);
	const line = (row: string[]) =>
		'  ' +
		row
			.map((cell, column) =>
				numeric[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]),
			)
			.join('  ')
			.trimEnd();
	const rule = '  ' + widths.map((width) => '-'.repeat(width)).join('  ');
	return [line(cells[0]), rule, ...cells.slice(1).map(line)].join('\n');
}

export function printSection(section: Section): void {
	console.log(`\n## ${section.title}\n`);
	for (const note of section.notes) console.log(`  ${note}`);
	if (section.notes.length) console.log('');
	console.log(table(section.columns, section.rows));
	if (section.goals.length) {
		console.log('');
		for (const item of section.goals) {
			console.log(`  [${item.pass ? 'PASS' : 'MISS'}] ${item.goal}: ${item.actual}`);
		}
	}
}

export function writeJson(file: string, value: unknown): void {
	mkdirSync(path.dirname(file), { recursive: true });
	writeFileSync(file, JSON.stringify(value, null, '\t') + '\n');
}

/** Where a case's figures go: a small summary in git, its raw data (timelines, every run) beside it out of git. */
export const RESULTS_DIR = path.join(__dirname, 'results');
export const RAW_DIR = path.join(RESULTS_DIR, 'raw');

export interface CaseSummary {
	case: string;
	/** The command that produced it, as typed. */
	command: string;
	generatedAt: string;
	commit: string;
	/** The figures are not the defaults' (a narrowing setting was set): written as <case>.subset.json. */
	narrowed: boolean;
	conditions: Record<string, unknown>;
	title?: string;
	notes?: string[];
	columns?: string[];
	rows?: Array<Array<string | number>>;
	goals?: Goal[];
	/** What a case that prints its own report printed. */
	printed?: string[];
}

/** Writes the case's summary (bench/results/<case>.json) and, when given, its raw data (results/raw/). */
export function writeCaseSummary(summary: CaseSummary, raw?: unknown): string {
	const name = `${summary.case}${summary.narrowed ? '.subset' : ''}.json`;
	const file = path.join(RESULTS_DIR, name);
	writeJson(file, summary);
	if (raw !== undefined) writeJson(path.join(RAW_DIR, name), raw);
	return file;
}

/** The commit measured, marked when the work tree differs from it. */
export function currentCommit(): string {
	try {
		const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
		const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
		return `${git('rev-parse', 'HEAD')}${dirty ? ' (with uncommitted changes)' : ''}`;
	} catch {
		return 'unknown';
	}
}
