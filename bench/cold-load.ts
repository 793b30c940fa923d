/**
 * Benchmark 5: how long `require()` of the built node module takes in a fresh `node` process, with
 * n8n-workflow resolved from the project's node_modules. Median of 5 processes, twice: fully cold,
 * and with n8n-workflow already loaded (as it always is inside n8n), which leaves the node's own cost.
 */
import { execFileSync } from 'child_process';
import { existsSync } from 'fs';
import * as path from 'path';

import { repoRoot } from '../test/e2e/harness';
import { median, round } from './measure';
import { type Section, num } from './report';

export const NODE_MODULE = path.join(repoRoot, 'dist/nodes/SmsLeopard/SmsLeopard.node.js');
const RUNS = 5;

// Runs in the child: times the require, checks the class is there, counts the modules it loaded.
const PROBE = `
const preload = process.argv[2] === 'preload';
if (preload) require('n8n-workflow');
const before = Object.keys(require.cache).length;
const started = process.hrtime.bigint();
const loaded = require(process.argv[1]);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const description = new loaded.SmsLeopard().description;
if (!description || description.name !== 'smsLeopard') throw new Error('no SmsLeopard node in the module');
process.stdout.write(JSON.stringify({ ms, modules: Object.keys(require.cache).length - before }));
`;

interface Sample {
	ms: number;
	modules: number;
}

function sample(nodeBin: string, preload: boolean): Sample {
	const out = execFileSync(nodeBin, ['-e', PROBE, NODE_MODULE, preload ? 'preload' : 'cold'], {
		cwd: repoRoot,
		encoding: 'utf8',
		env: { PATH: process.env.PATH ?? '' },
		timeout: 30_000,
	});
	return JSON.parse(out) as Sample;
}

export function benchColdLoad(nodeBin: string, log: (message: string) => void): Section {
	if (!existsSync(NODE_MODULE)) throw new Error(`${NODE_MODULE} is missing: run npm run build`);
	const nodeVersion = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
	const modes = [
		{ key: 'cold', label: 'fresh process, nothing preloaded', preload: false },
		{ key: 'n8nWorkflowLoaded', label: 'n8n-workflow already loaded (as in n8n)', preload: true },
	];
	const results = modes.map((mode) => {
		log(`cold load: ${mode.label}`);
		const samples = Array.from({ length: RUNS }, () => sample(nodeBin, mode.preload));
		return {
			...mode,
			samples,
			medianMs: median(samples.map((item) => item.ms)),
			modules: samples[0].modules,
		};
	});
	return {
		title: '5. Cold load: require() of the built node module',
		notes: [
			`${path.relative(repoRoot, NODE_MODULE)} on Node ${nodeVersion}, median of ${RUNS} fresh processes each;`,
			"n8n-workflow, zod and form-data resolve from the project's node_modules.",
		],
		columns: ['mode', 'median ms', 'min ms', 'max ms', 'modules loaded'],
		rows: results.map((result) => [
			result.label,
			num(result.medianMs, 1),
			num(Math.min(...result.samples.map((item) => item.ms)), 1),
			num(Math.max(...result.samples.map((item) => item.ms)), 1),
			String(result.modules),
		]),
		goals: [],
		data: {
			node: nodeVersion,
			module: path.relative(repoRoot, NODE_MODULE),
			modes: results.map((result) => ({
				key: result.key,
				medianMs: round(result.medianMs, 2),
				samplesMs: result.samples.map((item) => round(item.ms, 2)),
				modules: result.modules,
			})),
		},
	};
}
