/**
 * BENCH_NODE_TIMES=1 with BENCH_KEEP_BATCHES=1: where a batch execution's time goes, and the
 * campaign's own (the opening before the first batch). Reads the kept executions' run data (n8n
 * stores it flatted) and prints, per node of the workflow, the median and 90th percentile of its
 * time and the size of its output (what a queue-mode worker saves at the execution's end, even for
 * a workflow that keeps no execution); the time from an execution's start to its first node and
 * from its last node to its stop; the time a worker waited between two executions (an execution's
 * start less the latest stop before it, as the next job of the worker that stopped); when the first
 * and last batches were queued (n8n's main created them) and started; and the errors of failed
 * runs, so a slow step between sends is named rather than guessed.
 */
import { parse } from 'flatted';

import type { Psql } from './postgres';

interface NodeRun {
	startTime: number;
	executionTime: number;
	error?: { message?: string; description?: string };
	data?: { main?: Array<Array<{ json?: Record<string, unknown> }> | null> };
}

/**
 * Batches listed one by one at each end of a campaign: the first to start (the opening, where each
 * counts the batches sending) and the last to end their sends.
 */
const LISTED_BATCHES = 8;

const percentile = (values: number[], p: number): number => {
	if (!values.length) return NaN;
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};

export function printNodeTimes(db: Psql, workflowId: string, what = 'a batch'): void {
	if (process.env.BENCH_NODE_TIMES !== '1') return;
	const rows = db.rows(
		`SELECT e.id, extract(epoch from e."startedAt") * 1000, extract(epoch from e."stoppedAt") * 1000, d.data, extract(epoch from e."createdAt") * 1000 FROM execution_entity e JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = '${workflowId.replace(/'/g, '')}' ORDER BY e.id;`,
	);
	// Per node, each run's time, and what its output adds to the run data a queue-mode worker saves
	// at the execution's end.
	const perNode = new Map<string, { times: number[]; outputBytes: number[] }>();
	const firstNodeDelay: number[] = [];
	const lastNodeToStop: number[] = [];
	const spans: Array<[number, number]> = [];
	const totals: number[] = [];
	const errors = new Map<string, number>();
	// One execution (the campaign's): its nodes in the order they ran, each from the execution's start,
	// and the start as a Unix time, to line up with samples taken outside n8n (a memory probe).
	const sequence: string[] = [];
	// A batch workflow's batches: when each started, the batches it counted sending, and when its
	// sends began and ended (the first ones are listed, every one's count is tallied).
	const batches: CountedBatch[] = [];
	for (const [, started, stopped, data, created] of rows) {
		const start = Number(started);
		const end = Number(stopped);
		totals.push(end - start);
		spans.push([start, end]);
		const runData = (parse(data) as { resultData?: { runData?: Record<string, NodeRun[]> } })
			.resultData?.runData;
		if (!runData) continue;
		let earliest = Infinity;
		let latest = -Infinity;
		for (const [name, runs] of Object.entries(runData)) {
			for (const run of runs) {
				if (!perNode.has(name)) perNode.set(name, { times: [], outputBytes: [] });
				const node = perNode.get(name)!;
				node.times.push(run.executionTime);
				node.outputBytes.push(JSON.stringify(run.data ?? null).length);
				if (run.error) {
					const text = `${name}: ${run.error.message ?? ''} ${run.error.description ?? ''}`.trim();
					errors.set(text, (errors.get(text) ?? 0) + 1);
				}
				earliest = Math.min(earliest, run.startTime);
				latest = Math.max(latest, run.startTime + run.executionTime);
			}
		}
		// Every node run of the execution, in the order they ran: the campaign's sequence and each
		// batch's nodes before its send are both read from it.
		const ran = Object.entries(runData)
			.flatMap(([name, runs]) => runs.map((run) => ({ name, run })))
			.sort((a, b) => a.run.startTime - b.run.startTime);
		if (rows.length === 1) {
			sequence.push(
				`  started at ${start} (Unix ms), stopped ${(end - start).toFixed(0)} ms later`,
			);
			for (const { name, run } of ran)
				sequence.push(
					`  +${String(run.startTime - start).padStart(6)} ms  ${name.padEnd(32)} ${String(run.executionTime).padStart(6)} ms`,
				);
		}
		const counted = runData['Batches Sharing the Limit']?.[0]?.data?.main?.[0]?.[0]?.json;
		const send = runData['Send Campaign Message']?.[0];
		const posted = runData['Batch Webhook']?.[0]?.data?.main?.[0]?.[0]?.json?.body as
			{ batch?: unknown } | undefined;
		if (counted && send)
			batches.push({
				start,
				queued: Number(created),
				batch: String(posted?.batch ?? '?'),
				counted: counted.batchesSending,
				sendsFrom: send.startTime,
				sendsTo: send.startTime + send.executionTime,
				before: ran
					.filter(({ run }) => run.startTime < send.startTime)
					.map(({ name, run }) => `${name} ${run.executionTime}`)
					.join(', '),
			});
		if (earliest < Infinity) firstNodeDelay.push(earliest - start);
		if (latest > -Infinity) lastNodeToStop.push(end - latest);
	}
	const between = spans
		.map(([start]) => start - Math.max(...spans.map(([, end]) => (end <= start ? end : -Infinity))))
		.filter((gap) => Number.isFinite(gap));
	const lines = [
		`  executions kept: ${rows.length}; total ms median ${percentile(totals, 0.5).toFixed(0)}, p90 ${percentile(totals, 0.9).toFixed(0)}`,
		`  from the execution's start to its first node: median ${percentile(firstNodeDelay, 0.5).toFixed(0)} ms`,
		`  from its last node to its stop: median ${percentile(lastNodeToStop, 0.5).toFixed(0)} ms`,
		`  a worker between two executions (a start less the latest stop before it): median ${percentile(between, 0.5).toFixed(0)} ms, p90 ${percentile(between, 0.9).toFixed(0)} ms`,
		...[...perNode.entries()].map(
			([name, { times, outputBytes }]) =>
				`  ${name.padEnd(32)} median ${percentile(times, 0.5).toFixed(0).padStart(6)} ms  p90 ${percentile(times, 0.9).toFixed(0).padStart(6)} ms  runs ${times.length}  output ${(percentile(outputBytes, 0.5) / 1024).toFixed(0)} KB`,
		),
		...[...errors.entries()].map(([text, count]) => `  error x ${count}: ${text}`),
		...(sequence.length ? ['  in the order they ran:', ...sequence] : []),
		...countLines(batches),
	];
	console.log(`\nWhere ${what}'s time goes (BENCH_NODE_TIMES=1):\n${lines.join('\n')}`);
}

/** A batch execution: when it started, the batches it counted sending, when its sends ran (ms). */
interface CountedBatch {
	start: number;
	/** When n8n's main created the execution (queued its job), Unix ms. */
	queued: number;
	/** Its name in the record (the plan's execution and its place in the plan). */
	batch: string;
	counted: unknown;
	sendsFrom: number;
	sendsTo: number;
	/** The nodes before the send node, each with its time (ms), in the order they ran. */
	before: string;
}

function countLines(batches: CountedBatch[]): string[] {
	if (!batches.length) return [];
	const byStart = [...batches].sort((a, b) => a.start - b.start);
	const origin = byStart[0].start;
	const at = (ms: number) => `+${String(ms - origin).padStart(6)}`;
	// Every batch's count, not just the opening's: a count under the batches really sending (one of
	// them between its executions as this one read the record) over-shares for a whole batch.
	const counts = new Map<string, number>();
	for (const batch of batches)
		counts.set(String(batch.counted), (counts.get(String(batch.counted)) ?? 0) + 1);
	const histogram = [...counts.entries()]
		.sort(([a], [b]) => Number(a) - Number(b))
		.map(([counted, batches]) => `${counted}: ${batches}`)
		.join(', ');
	const usual = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
	const unusual = byStart
		.filter((batch) => String(batch.counted) !== usual)
		.map((batch) => `${batch.counted} at ${((batch.start - origin) / 1000).toFixed(1)} s`);
	const first = byStart.slice(0, LISTED_BATCHES);
	// The end: the last batches, by when their sends ended (each still sends at the share it took
	// when it started, however many of the others have ended since).
	const last = [...batches].sort((a, b) => a.sendsTo - b.sendsTo).slice(-LISTED_BATCHES);
	const line = (batch: CountedBatch) =>
		`  ${at(batch.start)} ms (queued ${at(batch.queued)})  ${batch.batch.padEnd(8)} counted ${String(batch.counted).padStart(2)} sending; sends from ${at(batch.sendsFrom)} to ${at(batch.sendsTo)} ms; before: ${batch.before}`;
	return [
		`  batches sending as each batch counted them (count: batches): ${histogram}`,
		`  counts other than ${usual}, from the first batch's start: ${unusual.join(', ') || 'none'}`,
		`  the first ${first.length} batches, from the first one's start (${origin} Unix ms; queued ${byStart[0].queued.toFixed(0)}):`,
		...first.map(line),
		`  the last ${last.length} batches to end their sends, from the first one's start:`,
		...last.map(line),
	];
}
