/**
 * The generative answer suite (issue 22, point 8): every operation that sends or changes something,
 * run in n8n's real engine with several items against a hostile gateway of its own, under Continue
 * On Fail and under the default Stop, with answers drawn from the family real gateways give and
 * faults at each phase. Every run is checked against every invariant (./invariants.ts).
 *
 * A fixed seed by default; FC_SEED=<n> draws other runs, GEN_RUNS=<n> more of them per operation
 * and mode, GEN_INVARIANTS=own-id,bounded checks only those (to find each one's smallest
 * counterexample), GEN_ONLY=upload runs one operation, GEN_VERBOSE=1 says how many runs each
 * operation and mode had. A failure prints its seed and the shrunk run.
 */
import fc from 'fast-check';
import {
	type InvariantName,
	INVARIANTS,
	type RunRecord,
	type Violation,
	checkRun,
} from './invariants';
import { type Stage, runAgainstGateway, startStage } from './run-against-gateway';
import { type RunDraw, SCENARIOS, drawArb } from './scenarios';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 22_2026;
const RUNS = process.env.GEN_RUNS ? Number(process.env.GEN_RUNS) : 40;
/** Per operation and mode, drawing and shrinking included: the suite stays near a minute. */
const TIME_LIMIT_MS = process.env.GEN_TIME_LIMIT_MS ? Number(process.env.GEN_TIME_LIMIT_MS) : 4_500;
const SELECTED = (process.env.GEN_INVARIANTS?.split(',').filter(Boolean) ??
	INVARIANTS) as InvariantName[];

let stage: Stage;
beforeAll(async () => {
	stage = await startStage();
});
afterAll(async () => await stage.close());

function describeRun(draw: RunDraw, run: RunRecord, violations: Violation[]): string {
	const exchanges = run.exchanges.map(
		(exchange) =>
			`${exchange.method} ${exchange.path} items [${exchange.items.join(',')}] ${exchange.received ? 'received' : 'cut off'} -> ${exchange.answer ? (exchange.answer.fault === 'none' ? exchange.answer.status : exchange.answer.fault) : 'none'}`,
	);
	return [
		...violations.map((violation) => `${violation.invariant}: ${violation.detail}`),
		`numbers: ${draw.numbers.join(', ')}; host: ${draw.host}`,
		'gateway saw:',
		...exchanges.map((line) => `  ${line}`),
	].join('\n');
}

const ONLY = process.env.GEN_ONLY?.toLowerCase();
const scenarios = SCENARIOS.filter(
	(scenario) => !ONLY || scenario.name.toLowerCase().includes(ONLY),
);

describe.each(scenarios)('$name against a hostile gateway', (scenario) => {
	it.each(['continue', 'stop'] as const)(
		'%s: every item accounted for, none wrongly paired, bounded, no secret',
		async (mode) => {
			const details = await fc.check(
				fc.asyncProperty(drawArb(scenario), async (draw) => {
					const run = await runAgainstGateway(stage, { scenario, draw, mode });
					const violations = checkRun(run, SELECTED);
					if (violations.length > 0) throw new Error(describeRun(draw, run, violations));
				}),
				{
					seed: SEED,
					numRuns: RUNS,
					plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)],
				},
			);
			// How much of the family one run of the suite covered, when asked.
			if (process.env.GEN_VERBOSE)
				console.log(`${scenario.name}, ${mode}: ${details.numRuns} runs, seed ${details.seed}`);
			if (details.failed) {
				// The seed and the shrunk run, then what that run broke.
				const broken = details.errorInstance instanceof Error ? details.errorInstance.message : '';
				throw new Error(`${fc.defaultReportMessage(details)}\n\n${broken}`);
			}
		},
		120_000,
	);
});
