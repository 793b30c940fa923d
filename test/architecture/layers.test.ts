import { readFileSync, readdirSync, statSync } from 'fs';
import path from 'path';

/**
 * The node's floors, lowest first. A file may import from its own floor or a lower one, never a
 * higher one: the client knows nothing of the node, helpers nothing of the operations.
 */
const ROOT = path.join(__dirname, '../..');
const FLOORS: Array<[floor: string, rank: number]> = [
	['nodes/SmsLeopard/client/', 0],
	['credentials/', 1],
	['nodes/SmsLeopard/helpers/', 1],
	['nodes/SmsLeopard/transport/', 2],
	['nodes/SmsLeopard/actions/', 3],
	// The editor's pickers and field loaders serve an operation's fields, so they may use its modules.
	['nodes/SmsLeopard/methods/', 4],
	['nodes/SmsLeopard/SmsLeopard.node.ts', 5],
];

function rankOf(file: string): number {
	const relative = path.relative(ROOT, file).split(path.sep).join('/');
	const floor = FLOORS.find(([prefix]) => relative.startsWith(prefix));
	if (!floor) throw new Error(`${relative} is on no floor: add its folder to FLOORS`);
	return floor[1];
}

function sourceFiles(folder: string): string[] {
	return readdirSync(folder).flatMap((name) => {
		const full = path.join(folder, name);
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return name.endsWith('.ts') ? [full] : [];
	});
}

/** The file a relative import names (`./x` is x.ts or x/index.ts). */
function resolve(from: string, target: string): string {
	const base = path.resolve(path.dirname(from), target);
	for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) {
		try {
			if (statSync(candidate).isFile()) return candidate;
		} catch {
			// not this one
		}
	}
	throw new Error(`${path.relative(ROOT, from)} imports ${target}, which does not exist`);
}

const files = [
	...sourceFiles(path.join(ROOT, 'nodes/SmsLeopard')),
	...sourceFiles(path.join(ROOT, 'credentials')),
];

describe('no import climbs to a higher floor', () => {
	it('has the node and the credential to check', () => {
		expect(files.length).toBeGreaterThan(60);
	});

	it('every relative import stays on its floor or goes down', () => {
		const climbing: string[] = [];
		for (const file of files) {
			const source = readFileSync(file, 'utf8');
			for (const [, target] of source.matchAll(/(?:from|import|require\()\s*['"](\.[^'"]*)['"]/g)) {
				const imported = resolve(file, target);
				if (rankOf(imported) > rankOf(file)) {
					climbing.push(
						`${path.relative(ROOT, file)} imports ${path.relative(ROOT, imported)} (a higher floor)`,
					);
				}
			}
		}
		expect(climbing).toEqual([]);
	});
});

describe("the client's files import in one direction", () => {
	/** Each client file's relative imports of other client files, `index.ts` (the re-exports) aside. */
	const client = path.join(ROOT, 'nodes/SmsLeopard/client');
	const graph = new Map<string, string[]>();
	for (const file of files.filter(
		(entry) => entry.startsWith(client) && !entry.endsWith('index.ts'),
	)) {
		const source = readFileSync(file, 'utf8');
		const targets = [...source.matchAll(/(?:from|import)\s*['"](\.[^'"]*)['"]/g)]
			.map(([, target]) => resolve(file, target))
			.filter((imported) => imported.startsWith(client));
		graph.set(file, targets);
	}

	/** Every import circle, each as the files around it (found by a depth-first walk). */
	function circles(): string[] {
		const found = new Set<string>();
		const walk = (file: string, trail: string[]) => {
			const at = trail.indexOf(file);
			if (at >= 0) {
				const circle = trail.slice(at).map((entry) => path.basename(entry));
				const start = circle.indexOf([...circle].sort()[0]);
				found.add([...circle.slice(start), ...circle.slice(0, start)].join(' -> '));
				return;
			}
			for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
		};
		for (const file of graph.keys()) walk(file, []);
		return [...found];
	}

	it('no two client files import each other, directly or around a circle', () => {
		expect(graph.size).toBeGreaterThan(30);
		expect(circles()).toEqual([]);
	});
});
