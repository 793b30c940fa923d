/**
 * One measured `n8n execute`: the run data, the whole-process wall time and the peak resident memory
 * of the main n8n process, plus small helpers to read what a node did.
 */
import { executeWorkflow, nodeItems, type RunData, type UserFolder } from '../test/e2e/harness';

export interface MeasuredRun {
	ok: boolean;
	exitCode: number | null;
	runData: RunData;
	error?: Record<string, unknown>;
	/** Whole `n8n execute` process, start-up included. */
	processMs: number;
	/** VmHWM of the main n8n process (the task runner is a separate process, not counted). */
	peakRssMb: number;
	stderr: string;
}

export async function executeMeasured(
	folder: UserFolder,
	workflowId: string,
	options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<MeasuredRun> {
	const run = await executeWorkflow(folder, workflowId, {
		env: options.env,
		timeoutMs: options.timeoutMs ?? 120_000,
		measureMemory: true,
	});
	return {
		ok: run.ok,
		exitCode: run.exitCode,
		runData: run.runData,
		error: run.error,
		processMs: run.durationMs,
		peakRssMb: run.peakRssMb ?? Number.NaN,
		stderr: run.stderr,
	};
}

/** The node's own execution time (ms) as n8n recorded it: the time beyond n8n's start-up. */
export function nodeTimeMs(run: MeasuredRun, nodeName: string): number {
	const time = run.runData[nodeName]?.[0]?.executionTime;
	return typeof time === 'number' ? time : Number.NaN;
}

/** The json of every item a node put out (first run, first output), or [] if it did not run. */
export function outputItems(run: MeasuredRun, nodeName: string): Array<Record<string, unknown>> {
	return run.runData[nodeName] ? nodeItems(run.runData, nodeName) : [];
}

/** Items that carry an error (Continue On Fail output). */
export function errorItemCount(items: Array<Record<string, unknown>>): number {
	return items.filter((item) => item.error !== undefined).length;
}

/** The run's error message, shortened, for a failed run. */
export function runFailure(run: MeasuredRun): string {
	const message = run.error?.message ?? run.error?.description;
	if (message) return String(message).slice(0, 300);
	return `exit ${String(run.exitCode)}: ${run.stderr.trim().split('\n').slice(-3).join(' | ')}`;
}

/** Interleaved runs per variant: BENCH_REPEATS (1 to 10), else `fallback`. */
export function repeatsFromEnv(fallback = 5): number {
	return Math.max(1, Math.min(10, Number(process.env.BENCH_REPEATS ?? fallback) || fallback));
}

/**
 * The variants in the order of one repeat: a shuffle, seeded by the repeat so a run can be
 * repeated. In a fixed order each variant always ran after the same neighbour (a rotation keeps
 * neighbours too), so whatever one run leaves behind (a warm reply server, a busy disk) always
 * fell on the same variant: the HTTP Request node's batched SMS run, always right after its 15 s
 * run of 10,000 requests, measured 0.37-0.40 s, and 0.42-0.47 s in runs without that neighbour.
 */
export function inTurn<T>(variants: readonly T[], repeat: number): T[] {
	const order = [...variants];
	// mulberry32: small, and the same order for the same repeat on every machine.
	let seed = (repeat + 1) * 0x9e3779b9;
	const random = () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	for (let index = order.length - 1; index > 0; index--) {
		const other = Math.floor(random() * (index + 1));
		[order[index], order[other]] = [order[other], order[index]];
	}
	return order;
}

export const meanOf = (values: number[]): number =>
	values.reduce((sum, value) => sum + value, 0) / values.length;

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const round = (value: number, digits = 1): number =>
	Number.isFinite(value) ? Number(value.toFixed(digits)) : Number.NaN;
