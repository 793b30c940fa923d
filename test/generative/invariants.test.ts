/**
 * Each invariant check catches its violation. Fixed runs of the real node against the gateway that
 * keep the promise today pass every check; a copy of the same run broken in one way (an item's
 * flag flipped or dropped, two message ids swapped, a secret added, a node left waiting past its
 * bound) fails exactly the check that guards against it.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { PLAIN_ANSWER, type AnswerPlan } from './answers';
import { type RunRecord, checkRun, summaryOf } from './invariants';
import { type Stage, runAgainstGateway, startStage } from './run-against-gateway';
import { DELIVERY_REPORT_SECRET, type RunDraw, SCENARIOS, type Scenario } from './scenarios';

let stage: Stage;
beforeAll(async () => {
	stage = await startStage();
});
afterAll(async () => await stage.close());

const scenario = (name: string): Scenario => {
	const found = SCENARIOS.find((candidate) => candidate.name.includes(name));
	if (!found) throw new Error(`no scenario ${name}`);
	return found;
};

/** A run with these answers, one per item, and nothing else random. */
function draw(answers: AnswerPlan[], extra: Partial<RunDraw> = {}): RunDraw {
	return {
		itemCount: answers.length,
		answers: answers.map((answer) => [answer]),
		host: 'gateway',
		concurrency: 1,
		maxRateLimitWait: 0,
		numbers: ['0712345678', '+256712345678', '+254700000101'].slice(0, answers.length),
		customized: false,
		recipientsPerRequest: 1,
		includeRaw: false,
		errorOutput: false,
		...extra,
	};
}

const lostAnswer: AnswerPlan = { ...PLAIN_ANSWER, fault: 'reset-after-request' };

/** A deep copy of the run with the items of one output (default the first) changed by `edit`. */
function withOutputs(
	run: RunRecord,
	edit: (items: INodeExecutionData[]) => void,
	output = 0,
): RunRecord {
	const result = structuredClone({ ...run.result, run: undefined }) as unknown as NonNullable<
		RunRecord['result']
	>;
	edit(result.outputs[output]);
	return { ...run, result };
}

function withDescription(run: RunRecord, edit: (description: string) => string): RunRecord {
	const error = { ...run.result?.error, description: edit(String(run.result?.error?.description)) };
	return { ...run, result: { ...run.result, error } as RunRecord['result'] };
}

const names = (run: RunRecord) => [
	...new Set(checkRun(run).map((violation) => violation.invariant)),
];

describe('the invariant checks catch what they guard against', () => {
	it('one-outcome: an error item without mayHaveBeenSent, or an item missing, fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, lostAnswer]),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		expect(run.result?.items[1].json.mayHaveBeenSent).toBe(true);
		const unflagged = withOutputs(run, (items) => delete items[1].json.mayHaveBeenSent);
		expect(names(unflagged)).toEqual(['one-outcome']);
		const missing = withOutputs(run, (items) => items.splice(1, 1));
		expect(names(missing)).toEqual(['one-outcome']);
		const twice = withOutputs(run, (items) => items.push(structuredClone(items[0])));
		expect(names(twice)).toEqual(['one-outcome']);
	});

	it('one-outcome with the error output: a failed item whose error lacks mayHaveBeenSent fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, lostAnswer], { errorOutput: true }),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		const failed = run.result?.outputs[1][0].json.error as Record<string, unknown>;
		expect(failed.mayHaveBeenSent).toBe(true);
		const unflagged = withOutputs(
			run,
			(items) => delete (items[0].json.error as Record<string, unknown>).mayHaveBeenSent,
			1,
		);
		expect(names(unflagged)).toEqual(['one-outcome']);
	});

	it('one-outcome under Stop: an item left out of the summary, or in two of its lines, fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, lostAnswer, PLAIN_ANSWER]),
			mode: 'stop',
		});
		expect(checkRun(run)).toEqual([]);
		const summary = summaryOf(String(run.result?.error?.description));
		expect(summary?.maybe).toContain('item 2');
		expect(summary?.not).toContain('item 3');
		const left = withDescription(run, (text) =>
			text.replace(/^Maybe sent.*$/m, 'Maybe sent, the answer was lost: none.'),
		);
		expect(names(left)).toEqual(['one-outcome']);
		const twice = withDescription(run, (text) =>
			text.replace(/^(Not sent[^:]*\)): .*$/m, '$1: items 2-3; safe to run again.'),
		);
		expect(checkRun(twice).map((violation) => violation.detail)).toContainEqual(
			expect.stringContaining('item 1 is maybe and not at once'),
		);
		const noSummary = withDescription(run, (text) => text.split('\n\n')[0]);
		expect(names(noSummary)).toEqual(['one-outcome']);
	});

	it('not-sent-only-when-provably: an item the gateway received, called "not sent", fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, lostAnswer]),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		const flipped = withOutputs(run, (items) => (items[1].json.mayHaveBeenSent = false));
		expect(names(flipped)).toEqual(['not-sent-only-when-provably']);
		// The same under Stop: the lost answer moved to the Not sent line.
		const stopped = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, lostAnswer, PLAIN_ANSWER]),
			mode: 'stop',
		});
		const moved = withDescription(stopped, (text) =>
			text
				.replace(/^Maybe sent.*$/m, 'Maybe sent, the answer was lost: none.')
				.replace(/^(Not sent[^:]*\)): .*$/m, '$1: items 2-3; safe to run again.'),
		);
		expect(names(moved)).toEqual(['not-sent-only-when-provably']);
	});

	it('not-sent-only-when-provably: a send the gateway refused with a 4xx may be called "not sent"', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([{ ...PLAIN_ANSWER, status: 422 }, PLAIN_ANSWER]),
			mode: 'continue',
		});
		expect(run.exchanges.map((exchange) => exchange.mayHaveActed)).toEqual([false, true]);
		const notSent = withOutputs(run, (items) => (items[0].json.mayHaveBeenSent = false));
		expect(checkRun(notSent, ['not-sent-only-when-provably'])).toEqual([]);
	});

	it('maybe-only-when-it-may-have-left: a refused connection called "maybe sent" fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Create'),
			draw: draw([PLAIN_ANSWER, PLAIN_ANSWER], { host: 'refused' }),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		expect(run.result?.items.map((item) => item.json.mayHaveBeenSent)).toEqual([false, false]);
		const flipped = withOutputs(run, (items) => (items[0].json.mayHaveBeenSent = true));
		expect(names(flipped)).toEqual(['maybe-only-when-it-may-have-left']);
	});

	it("own-id: two items of one SMS batch with each other's message ids fail it", async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Send SMS'),
			// Two numbers no account could take for one (0712345678 beside +256712345678 pair with
			// neither item: both are maybe sent, and nothing would be left to swap).
			draw: draw([PLAIN_ANSWER, PLAIN_ANSWER], {
				recipientsPerRequest: 2,
				numbers: ['0712345678', '+254700000101'],
			}),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		expect(run.exchanges.filter((exchange) => exchange.items.length === 2)).toHaveLength(1);
		expect(run.result?.items.every((item) => typeof item.json.messageId === 'string')).toBe(true);
		const swapped = withOutputs(run, (items) => {
			const first = items[0].json.messageId;
			items[0].json.messageId = items[1].json.messageId;
			items[1].json.messageId = first;
		});
		expect(names(swapped)).toEqual(['own-id']);
		expect(checkRun(swapped)[0].detail).toContain('which the gateway answered for item 1');
		const invented = withOutputs(run, (items) => (items[0].json.messageId = 'null'));
		expect(names(invented)).toEqual(['one-outcome']);
		const unknown = withOutputs(run, (items) => (items[0].json.messageId = 'id-never-given'));
		expect(names(unknown)).toEqual(['own-id']);
	});

	it('bounded: a node that waits longer than its bound (Timeout 60 s against a stall) fails it', async () => {
		const stalled: AnswerPlan = { ...PLAIN_ANSWER, fault: 'stall-before-headers' };
		const sendSms = scenario('Send SMS');
		const slow = draw([stalled, PLAIN_ANSWER], { recipientsPerRequest: 2 });
		const run = await runAgainstGateway(stage, {
			scenario: sendSms,
			draw: slow,
			mode: 'continue',
			// The bound is counted for a 1 s Timeout; this node waits 60 s for the headers.
			overrides: {
				requestOptions: { ...(sendSms.parameters(slow).requestOptions as object), timeout: 60 },
			},
		});
		expect(run.timedOut).toBe(true);
		expect(checkRun(run, ['bounded'])).toEqual([expect.objectContaining({ invariant: 'bounded' })]);
	}, 20_000);

	it('no-secret: the Delivery Report Secret or the API key in an output item or a log line fails it', async () => {
		const run = await runAgainstGateway(stage, {
			scenario: scenario('Send SMS'),
			draw: draw([PLAIN_ANSWER, PLAIN_ANSWER]),
			mode: 'continue',
		});
		expect(checkRun(run)).toEqual([]);
		const inOutput = withOutputs(
			run,
			(items) => (items[0].json.note = `echo ${DELIVERY_REPORT_SECRET}`),
		);
		expect(names(inOutput)).toEqual(['no-secret']);
		const inLog = {
			...run,
			logLines: [
				...run.logLines,
				JSON.stringify({
					kind: 'log line (debug)',
					text: JSON.stringify({ message: 'sandbox-secret-0123456789' }),
				}),
			],
		};
		expect(names(inLog)).toEqual(['no-secret']);
	});
});
