import { readFileSync, readdirSync, statSync } from 'fs';
import path from 'path';

/**
 * Comments cite the API facts the code relies on by a heading of docs/api.md (and the template
 * rules by number), never documents outside the repository. A citation whose heading or rule is
 * not in docs/api.md fails here, with its file and line.
 */
const ROOT = path.join(__dirname, '../..');
const API = readFileSync(path.join(ROOT, 'docs/api.md'), 'utf8');
const headings = new Set([...API.matchAll(/^#+ (.+)$/gm)].map((match) => match[1].trim()));
const rulesSection = API.split(/^### Template send rules$/m)[1]?.split(/^#/m)[0] ?? '';
const ruleCount = [...rulesSection.matchAll(/^(\d+)\. /gm)].length;

const FOLDERS = ['nodes', 'credentials', 'test', 'scripts', 'bench'];
const SKIP = new Set([path.join(ROOT, 'test/docs/api-citations.test.ts')]);

function files(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (name === 'node_modules' || name.startsWith('.')) return [];
		if (statSync(full).isDirectory()) return files(full);
		return /\.(ts|js|mjs|md)$/.test(name) && !SKIP.has(full) ? [full] : [];
	});
}

const lines = FOLDERS.flatMap((folder) => files(path.join(ROOT, folder))).flatMap((file) =>
	readFileSync(file, 'utf8')
		.split('\n')
		.map((text, index) => ({ where: `${path.relative(ROOT, file)}:${index + 1}`, text })),
);

/** Documents that are not in the repository, or section numbers of one. */
const OUTSIDE =
	/\bspec(?:ification)? ?\d|\bspec section|provider[- ]notes|\bthe specification\b|service-interface\.md/i;

describe('citations of the API facts', () => {
	it('docs/api.md has its headings and the twelve template send rules', () => {
		expect(headings.size).toBeGreaterThan(10);
		expect(ruleCount).toBe(12);
	});

	it('cite nothing outside the repository', () => {
		expect(
			lines
				.filter(({ text }) => OUTSIDE.test(text))
				.map(({ where, text }) => `${where}: ${text.trim()}`),
		).toEqual([]);
	});

	it('keep a citation on one line, so it can be checked', () => {
		const split = lines.filter(({ text }) => /docs\/api\.md(?: "[^"]*)?$/.test(text.trimEnd()));
		expect(split.map(({ where }) => where)).toEqual([]);
	});

	it('name headings docs/api.md has', () => {
		const cited = lines.flatMap(({ where, text }) =>
			[...text.matchAll(/docs\/api\.md((?:,? "[^"]+")+)/g)].flatMap((match) =>
				[...match[1].matchAll(/"([^"]+)"/g)].map((heading) => ({ where, heading: heading[1] })),
			),
		);
		expect(cited.length).toBeGreaterThan(30);
		expect(cited.filter(({ heading }) => !headings.has(heading))).toEqual([]);
	});

	it('name template send rules docs/api.md has', () => {
		const rules = lines.flatMap(({ where, text }) =>
			[...text.matchAll(/\brules? (\d+)(?:\s*(?:-|,|and)\s*(\d+))*/gi)].flatMap((match) =>
				[...match[0].matchAll(/\d+/g)].map((number) => ({ where, rule: Number(number[0]) })),
			),
		);
		expect(rules.length).toBeGreaterThan(10);
		expect(rules.filter(({ rule }) => rule < 1 || rule > ruleCount)).toEqual([]);
	});
});
