import { readFileSync, readdirSync, statSync } from 'fs';
import path from 'path';

/**
 * The node's floors, lowest first. A file may import from its own floor or a lower one, never a
 * higher one: the client knows nothing of the node, helpers nothing of the operations.
 */
const ROOT = path.join(__dirname, '../..');
const FLOORS: Array<[floor: string, rank: number]> = [
	// The client's own floors: values, then the HTTP path, then the four concerns (each its own
	// folder, see CONCERNS), then client.ts and index.ts on top.
	['nodes/SmsLeopard/client/values/', 0],
	['nodes/SmsLeopard/client/http/', 0.2],
	['nodes/SmsLeopard/client/whatsapp/', 0.5],
	['nodes/SmsLeopard/client/sms/', 0.5],
	['nodes/SmsLeopard/client/contacts/', 0.5],
	['nodes/SmsLeopard/client/inbound/', 0.5],
	['nodes/SmsLeopard/client/', 0.8],
	['credentials/', 1],
	['nodes/SmsLeopard/helpers/', 1],
	['nodes/SmsLeopard/transport/', 2],
	['nodes/SmsLeopard/actions/', 3],
	// The editor's pickers and field loaders serve an operation's fields, so they may use its modules.
	['nodes/SmsLeopard/methods/', 4],
	['nodes/SmsLeopard/SmsLeopard.node.ts', 5],
];

function floorOf(file: string): [floor: string, rank: number] {
	const relative = path.relative(ROOT, file).split(path.sep).join('/');
	const floor = FLOORS.find(([prefix]) => relative.startsWith(prefix));
	if (!floor) throw new Error(`${relative} is on no floor: add its folder to FLOORS`);
	return floor;
}

/** The client's concerns share a floor and never import one another (WhatsApp knows no SMS). */
const CONCERN_RANK = 0.5;

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
				const [fromFloor, fromRank] = floorOf(file);
				const [toFloor, toRank] = floorOf(imported);
				if (toRank > fromRank) {
					climbing.push(
						`${path.relative(ROOT, file)} imports ${path.relative(ROOT, imported)} (a higher floor)`,
					);
				} else if (toRank === CONCERN_RANK && fromRank === CONCERN_RANK && toFloor !== fromFloor) {
					climbing.push(
						`${path.relative(ROOT, file)} imports ${path.relative(ROOT, imported)} (another concern)`,
					);
				}
			}
		}
		expect(climbing).toEqual([]);
	});
});

/** Import circles, type-only ones too: each group of files that import one another in a ring. */

function circles(): string[] {
	const imports = new Map<string, string[]>();
	for (const file of files) {
		const source = readFileSync(file, 'utf8');
		imports.set(
			file,
			[...source.matchAll(/(?:from|import|require\()\s*['"](\.[^'"]*)['"]/g)].map(([, target]) =>
				resolve(file, target),
			),
		);
	}
	// Tarjan's strongly connected components: a component of two or more files is a circle.
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const found: string[] = [];
	const visit = (file: string): void => {
		index.set(file, index.size);
		low.set(file, index.get(file)!);
		stack.push(file);
		for (const next of imports.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (stack.includes(next)) {
				low.set(file, Math.min(low.get(file)!, index.get(next)!));
			}
		}
		if (low.get(file) !== index.get(file)) return;
		const ring: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			ring.push(
				path.relative(path.join(ROOT, 'nodes/SmsLeopard'), member).split(path.sep).join('/'),
			);
		} while (member !== file);
		if (ring.length > 1) found.push(ring.sort().join(' > '));
	};
	for (const file of files) if (!index.has(file)) visit(file);
	return found.sort();
}

describe('no import circle', () => {
	it('no files import one another in a ring', () => {
		expect(circles()).toEqual([]);
	});
});
