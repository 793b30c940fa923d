// Imports credentials and workflows into a user folder and executes a workflow with
// `n8n execute --id --rawOutput`, turning its output into the run data.
import { randomBytes } from 'crypto';
import { writeFileSync } from 'fs';
import * as path from 'path';

import { runN8n, type RunOptions, type UserFolder } from './n8n-process';

export interface CredentialImport {
	id: string;
	name: string;
	type: string;
	/** Plain values: n8n encrypts them with the folder's key on import. */
	data: Record<string, unknown>;
}

/** The workflow JSON as n8n exports it; `id` is filled in when missing. */
export interface WorkflowJson {
	id?: string;
	name: string;
	nodes: unknown[];
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface NodeRun {
	data?: {
		main?: Array<Array<{ json: Record<string, unknown>; pairedItem?: unknown }> | null>;
	};
	error?: Record<string, unknown>;
	[key: string]: unknown;
}
export type RunData = Record<string, NodeRun[]>;

export interface ExecuteResult {
	ok: boolean;
	exitCode: number | null;
	runData: RunData;
	/** data.resultData.error when the run failed. */
	error?: Record<string, unknown>;
	stdout: string;
	stderr: string;
	durationMs: number;
	/** Peak resident memory of the main n8n process in MB, with `measureMemory`. */
	peakRssMb?: number;
}

let fileCounter = 0;
function writeInput(folder: UserFolder, kind: string, value: unknown): string {
	const file = path.join(folder.root, `${kind}-${++fileCounter}.json`);
	writeFileSync(file, JSON.stringify(value, null, '\t'));
	return file;
}

async function importFile(
	folder: UserFolder,
	command: string,
	value: unknown,
	options?: RunOptions,
) {
	const file = writeInput(folder, command.replace(':', '-'), value);
	const result = await runN8n(folder, [command, `--input=${file}`], options);
	if (result.exitCode !== 0) {
		throw new Error(
			`n8n ${command} failed (${result.exitCode}):\n${result.stdout}\n${result.stderr}`,
		);
	}
}

export async function importCredentials(
	folder: UserFolder,
	creds: CredentialImport[],
	options?: RunOptions,
): Promise<void> {
	await importFile(folder, 'import:credentials', creds, options);
}

/** Imports the workflow and returns its id (n8n allows at most 21 characters). */
export async function importWorkflow(
	folder: UserFolder,
	workflow: WorkflowJson,
	options?: RunOptions,
): Promise<string> {
	return (await importWorkflows(folder, [workflow], options))[0];
}

/** One `n8n import:workflow` for many (each n8n command costs 2-4 s of start-up); their ids. */
export async function importWorkflows(
	folder: UserFolder,
	workflows: WorkflowJson[],
	options?: RunOptions,
): Promise<string[]> {
	const withIds = workflows.map((workflow) => {
		const id = workflow.id ?? `e2e${randomBytes(8).toString('hex')}`;
		if (id.length > 21) throw new Error(`workflow id "${id}" is longer than 21 characters`);
		return { active: false, settings: {}, ...workflow, id };
	});
	await importFile(folder, 'import:workflow', withIds, options);
	return withIds.map((workflow) => workflow.id);
}

/**
 * The run as JSON from the output: log lines come first, then the pretty-printed run starting
 * on a line of its own; a failed run prints it too, after "Execution was NOT successful".
 */
export function parseRun(
	stdout: string,
): { data?: { resultData?: Record<string, unknown> } } | undefined {
	const lines = stdout.split('\n');
	for (let i = 0; i < lines.length; i++) {
		if (!lines[i].startsWith('{')) continue;
		for (let end = lines.length; end > i; end--) {
			if (!lines[end - 1].startsWith('}')) continue;
			try {
				const value = JSON.parse(lines.slice(i, end).join('\n'));
				if (value?.data?.resultData) return value;
			} catch {
				// Not this span: a log line that happens to start with "{", try the next.
			}
			break;
		}
	}
	return undefined;
}

export async function executeWorkflow(
	folder: UserFolder,
	workflowId: string,
	options?: RunOptions,
): Promise<ExecuteResult> {
	const result = await runN8n(folder, ['execute', `--id=${workflowId}`, '--rawOutput'], {
		doneWhen: (stdout) => parseRun(stdout) !== undefined,
		...options,
	});
	const parsed = parseRun(result.stdout)?.data?.resultData;
	const resultData = parsed ?? {};
	// A run that printed no readable run data is a failure, never an empty success.
	const error =
		(resultData.error as Record<string, unknown> | undefined) ??
		(parsed
			? undefined
			: { message: `no run data in the output of n8n execute (exit ${String(result.exitCode)})` });
	return {
		// A run printed whole and then killed because n8n hung in its shutdown (CliResult
		// killedAfterDone) is judged by what it printed; the run log (E2E_RUN_LOG) counts such runs.
		ok: (result.exitCode === 0 || result.killedAfterDone === true) && !error,
		exitCode: result.exitCode,
		runData: (resultData.runData as RunData | undefined) ?? {},
		error,
		stdout: result.stdout,
		stderr: result.stderr,
		durationMs: result.durationMs,
		peakRssMb: result.peakRssMb,
	};
}

type OutputOf = { runIndex?: number; output?: number };

/** The items a node put out (first run, first output unless told). */
function outputOf(runData: RunData, nodeName: string, { runIndex = 0, output = 0 }: OutputOf) {
	const run = runData[nodeName]?.[runIndex];
	if (!run)
		throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})`);
	return run.data?.main?.[output] ?? [];
}

/** The json of the items a node put out (first run, first output unless told). */
export function nodeItems(
	runData: RunData,
	nodeName: string,
	options: OutputOf = {},
): Array<Record<string, unknown>> {
	return outputOf(runData, nodeName, options).map((item) => item.json);
}

/** The input item each output item of a node came from (n8n's pairedItem), in output order. */
export function pairedItems(runData: RunData, nodeName: string, options: OutputOf = {}): unknown[] {
	return outputOf(runData, nodeName, options).map((item) => item.pairedItem);
}
