/**
 * The one benchmark runner (issue 52): every `npm run bench -- …` the docs, decisions and code
 * comments quote names cases the runner has, every case is documented in docs/performance.md, every
 * summary in bench/results/ is a case's and names the command that wrote it, every archived raw file
 * the docs cite is there, and no second runner crept back into package.json.
 */
import { existsSync, readFileSync, readdirSync } from 'fs';
import * as path from 'path';
import { execFileSync } from 'child_process';

import { CASES, CASE_SETS } from '../../bench/cases';

const root = path.join(__dirname, '../..');
const tracked = execFileSync(
	'git',
	['ls-files', 'docs', 'bench', 'test', 'CONTRIBUTING.md', 'README.md'],
	{
		cwd: root,
		encoding: 'utf8',
	},
)
	.split('\n')
	.filter((file) => /\.(md|ts)$/.test(file) && existsSync(path.join(root, file)));
const known = new Set([...CASES.map((entry) => entry.name), ...Object.keys(CASE_SETS)]);

/** The words after `npm run bench --` up to the end of the quote: case names and placeholders. */
function quotedRuns(text: string): string[][] {
	return [
		...text
			.replace(/\s*\n\s*/g, ' ')
			.matchAll(
				/npm run bench -- ((?:[A-Za-z-]+|<[a-z]+>)(?:[ ,]+(?:[A-Za-z-]+|<[a-z]+>|\[<case> \.\.\.\]))*)/g,
			),
	].map((match) =>
		match[1]
			.trim()
			.split(/[ ,]+/)
			.filter((word) => !/^[[\].]/.test(word)),
	);
}

describe('npm run bench -- <case>', () => {
	it('every run the docs and the code quote names cases the runner has', () => {
		const unknown = tracked.flatMap((file) =>
			quotedRuns(readFileSync(path.join(root, file), 'utf8'))
				.flat()
				// --list and --runs (N) are the runner's own flags.
				.filter((word) => !known.has(word) && !/^<[a-z ,]+>$|^--list$|^--runs$/.test(word))
				.map((word) => `${file}: ${word}`),
		);
		expect(unknown).toEqual([]);
	});

	it('every case is in the table of docs/performance.md', () => {
		const performance = readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
		const table = performance.slice(performance.indexOf('## The commands'));
		expect(
			CASES.filter((entry) => !table.includes(`\`${entry.name}\``)).map((entry) => entry.name),
		).toEqual([]);
	});

	it("every summary in bench/results is a case's, written by the command it names", () => {
		const folder = path.join(root, 'bench/results');
		const summaries = readdirSync(folder).filter((file) => file.endsWith('.json'));
		expect(summaries.length).toBeGreaterThan(0);
		for (const file of summaries) {
			const summary = JSON.parse(readFileSync(path.join(folder, file), 'utf8'));
			expect(file.replace(/(\.subset)?\.json$/, '')).toBe(summary.case);
			expect(known.has(summary.case)).toBe(true);
			expect(quotedRuns(`${summary.command}\``).flat()).toContain(summary.case);
		}
	});

	it('every archived raw file the docs cite is in bench/results/archive', () => {
		const cited = tracked
			.filter((file) => file.endsWith('.md'))
			.flatMap((file) => [
				...readFileSync(path.join(root, file), 'utf8').matchAll(/`([\w.-]+\.(?:json|txt)\.gz)`/g),
			])
			.map((match) => path.basename(match[1]));
		expect(cited.length).toBeGreaterThan(0);
		expect(
			cited.filter((file) => !existsSync(path.join(root, 'bench/results/archive', file))),
		).toEqual([]);
	});

	it('package.json has one runner: bench (and bench:table, which writes the docs from its results)', () => {
		const scripts = Object.keys(
			JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts,
		);
		expect(scripts.filter((name) => name.startsWith('bench')).sort()).toEqual([
			'bench',
			'bench:table',
		]);
	});
});
