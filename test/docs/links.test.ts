import { existsSync, readFileSync, readdirSync, statSync } from 'fs';
import path from 'path';

/**
 * Every relative link and anchor of the documents resolves: README.md (the npm page), CONTRIBUTING.md,
 * CHANGELOG.md and docs/**, and the documentation links the nodes and the credential show in n8n.
 * Anchors are GitHub's heading slugs. The README stays short enough to read on the npm page.
 */
const ROOT = path.join(__dirname, '../..');
const REPOSITORY = 'https://github.com/n8n-nodes-smsleopard/n8n-nodes-smsleopard';

function markdownFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (statSync(full).isDirectory()) return markdownFiles(full);
		return name.endsWith('.md') ? [full] : [];
	});
}

const DOCUMENTS = [
	...['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md'].map((name) => path.join(ROOT, name)),
	...markdownFiles(path.join(ROOT, 'docs')),
];

/** The lines outside fenced code blocks; without inline code too, where a link is a link. */
function prose(markdown: string, keepInlineCode = false): string[] {
	let fenced = false;
	return markdown.split('\n').map((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return '';
		}
		if (fenced) return '';
		return keepInlineCode ? line : line.replace(/`[^`]*`/g, '');
	});
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
	return heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
		.replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
	const known = anchorCache.get(file);
	if (known) return known;
	const anchors = new Set<string>();
	const seen = new Map<string, number>();
	for (const line of prose(readFileSync(file, 'utf8'), true)) {
		const heading = /^#{1,6} (.+?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const base = slug(heading[1]);
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	anchorCache.set(file, anchors);
	return anchors;
}

interface Link {
	where: string;
	/** The file the link points to, relative to the repository. */
	file: string;
	anchor?: string;
}

/** What is wrong with a link, or undefined when it resolves. */
function problemOf(link: Link): string | undefined {
	const full = path.join(ROOT, link.file);
	if (!existsSync(full)) {
		return `${link.file} does not exist`;
	}
	if (link.anchor === undefined) return undefined;
	if (!link.file.endsWith('.md')) return `#${link.anchor} points into ${link.file}, not a document`;
	const anchor = decodeURIComponent(link.anchor).toLowerCase();
	return anchorsOf(full).has(anchor) ? undefined : `${link.file} has no heading #${link.anchor}`;
}

/** Each link that does not resolve, with where it is and why. */
function brokenOf(links: Link[]): string[] {
	return links.flatMap((link) => {
		const problem = problemOf(link);
		return problem ? [`${link.where}: ${problem}`] : [];
	});
}

function linksOf(document: string): Link[] {
	const relative = path.relative(ROOT, document);
	return prose(readFileSync(document, 'utf8')).flatMap((line, index) =>
		[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].flatMap((match) => {
			const target = match[1];
			if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return [];
			const [file, anchor] = target.split('#', 2);
			const resolved = file
				? path.relative(ROOT, path.resolve(path.dirname(document), file))
				: relative;
			return [
				{ where: `${relative}:${index + 1}`, file: resolved.split(path.sep).join('/'), anchor },
			];
		}),
	);
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return /\.(ts|json)$/.test(name) ? [full] : [];
	});
}

/** The repository's links in the nodes, the credential and their codex files: what n8n shows. */
function hintLinks(): Link[] {
	const pattern = new RegExp(
		`${REPOSITORY.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/(?:blob|tree)/[^/'"\\s]+/([^#'"\\s)]*))?(?:#([^'"\\s?)]+))?`,
		'g',
	);
	return ['nodes', 'credentials']
		.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))
		.flatMap((file) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.flatMap((line, index) =>
					[...line.matchAll(pattern)]
						.filter((match) => !/\/issues\b/.test(match[0]))
						.map((match) => ({
							where: `${path.relative(ROOT, file)}:${index + 1}`,
							file: match[1] || 'README.md',
							anchor: match[2],
						})),
				),
		);
}

describe('links of the documents', () => {
	const links = DOCUMENTS.flatMap(linksOf);

	it('reads every document and its links', () => {
		expect(DOCUMENTS.map((file) => path.relative(ROOT, file))).toEqual(
			expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/api.md', 'docs/errors.md']),
		);
		expect(links.length).toBeGreaterThan(100);
	});

	it('every relative link and anchor resolves', () => {
		expect(brokenOf(links)).toEqual([]);
	});

	it('every documentation link the nodes and the credential show resolves', () => {
		const hints = hintLinks();
		expect(hints.length).toBeGreaterThanOrEqual(3);
		expect(brokenOf(hints)).toEqual([]);
	});

	it('anchors are GitHub heading slugs', () => {
		expect(slug('In the editor: Settings > Community Nodes')).toBe(
			'in-the-editor-settings--community-nodes',
		);
		expect(slug('Campaigns of 100,000')).toBe('campaigns-of-100000');
		expect(slug("Limiters beyond the sandbox's settings")).toBe(
			'limiters-beyond-the-sandboxs-settings',
		);
		expect(slug('The `[Unreleased]` section')).toBe('the-unreleased-section');
	});
});

describe('the pages', () => {
	it('each page of docs/ opens with who it is for', () => {
		const pages = markdownFiles(path.join(ROOT, 'docs')).filter(
			(file) => !/decisions\/\d{4}-/.test(file),
		);
		const opening = (file: string) =>
			readFileSync(file, 'utf8')
				.split('\n')
				.find((line, index) => index > 0 && line.trim() !== '') ?? '';
		expect(
			pages
				.filter((file) => !opening(file).startsWith('For '))
				.map((file) => path.relative(ROOT, file)),
		).toEqual([]);
	});

	it('CHANGELOG.md keeps its top section "## Unreleased" until a release', () => {
		const sections = readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8')
			.split('\n')
			.filter((line) => line.startsWith('## '));
		expect(sections[0]).toBe('## Unreleased');
	});
});

describe('the README', () => {
	const lines = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n');

	it('stays under 400 lines', () => {
		expect(lines.length).toBeLessThan(400);
	});

	it('answers what it does, how to install it and how to set up the credential (the npm page)', () => {
		const headings = lines.filter((line) => line.startsWith('## '));
		expect(headings).toEqual(
			expect.arrayContaining(['## Installation', '## Credentials', '## Operations']),
		);
		expect(lines.join('\n')).toContain('npm install n8n-nodes-smsleopard');
	});
});
