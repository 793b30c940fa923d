// Self-test of the harness against one installed n8n version, before any real node exists:
// import + execute + parse with a Code node, then a packed throwaway community package.
// Usage: npx tsx test/e2e/harness/smoke.ts 2.8.4
import { rmSync } from 'fs';
import * as path from 'path';

import {
	executeWorkflow,
	importWorkflow,
	nodeItems,
	prepareUserFolder,
	removeUserFolder,
	type WorkflowJson,
} from './index';
import { PROBE_TYPE, packProbePackage } from './probe-package';

const version = process.argv[2];
if (!version) throw new Error('usage: smoke.ts N8N_VERSION');

function node(name: string, type: string, x: number, parameters: Record<string, unknown> = {}) {
	return {
		id: name.toLowerCase().replace(/\W/g, '-'),
		name,
		type,
		typeVersion: 1,
		position: [x, 0],
		parameters,
	};
}

const workflow: WorkflowJson = {
	name: 'harness smoke',
	nodes: [
		node('Start', 'n8n-nodes-base.manualTrigger', 0),
		{
			...node('Three', 'n8n-nodes-base.code', 200, {
				jsCode: 'return [1, 2, 3].map((n) => ({ json: { n } }));',
			}),
			typeVersion: 2,
		},
		node('Probe', PROBE_TYPE, 400),
	],
	connections: {
		Start: { main: [[{ node: 'Three', type: 'main', index: 0 }]] },
		Three: { main: [[{ node: 'Probe', type: 'main', index: 0 }]] },
	},
};

async function main() {
	let t = Date.now();
	const tarball = packProbePackage();
	const folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball });
	console.log(`prepareUserFolder: ${Date.now() - t} ms (${folder.root})`);
	t = Date.now();
	const id = await importWorkflow(folder, workflow);
	console.log(`importWorkflow (first n8n command, runs migrations): ${Date.now() - t} ms`);
	for (const run of [1, 2, 3]) {
		const result = await executeWorkflow(folder, id);
		console.log(
			`executeWorkflow #${run}: ${result.durationMs} ms, ok=${result.ok}, exit=${result.exitCode}`,
		);
		if (!result.ok) {
			console.log(result.stdout, result.stderr, result.error);
			process.exitCode = 1;
			break;
		}
		if (run === 1) {
			console.log('Three:', JSON.stringify(nodeItems(result.runData, 'Three')));
			console.log('Probe:', JSON.stringify(nodeItems(result.runData, 'Probe'), null, 2));
		}
	}
	if (process.env.KEEP) return;
	removeUserFolder(folder);
	rmSync(path.dirname(tarball), { recursive: true, force: true });
}

void main();
