// Runs a workflow in a served n8n (`n8n start`) as the editor's Execute Workflow button does:
// saved through the REST API, started from its Manual Trigger, its execution read back. One n8n
// process per suite instead of two CLI starts per test (`n8n import:workflow`, `n8n execute`),
// which cost about 15 s of the 2 cores each.
import { recordForSecretScan } from '../../secret-scan/record';
import { logRun } from './n8n-process';
import type { N8nRest } from './n8n-rest';
import type { N8nServer } from './n8n-server';
import type { ExecuteResult, WorkflowJson } from './run-workflow';

const SETTLED = (status: string) => !['new', 'running', 'waiting', 'unknown'].includes(status);

/** The trigger the editor's button would start from: the workflow's Manual Trigger. */
export function manualTriggerOf(json: WorkflowJson): string | undefined {
	const nodes = json.nodes as Array<{ name: string; type: string; disabled?: boolean }>;
	return nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger' && !node.disabled)?.name;
}

export async function runOnServer(
	rest: N8nRest,
	server: N8nServer,
	json: WorkflowJson,
	timeoutMs = 120_000,
): Promise<ExecuteResult> {
	try {
		return await runSaved(rest, server, json, timeoutMs);
	} catch (error) {
		// A failing call says what n8n printed last (a crash, a refused workflow), not only "fetch failed".
		(error as Error).message +=
			`\n--- served n8n (${server.alive() ? 'still running' : 'exited'}), last output:\n${server.logs().slice(-3000)}`;
		throw error;
	}
}

async function runSaved(
	rest: N8nRest,
	server: N8nServer,
	json: WorkflowJson,
	timeoutMs: number,
): Promise<ExecuteResult> {
	const trigger = manualTriggerOf(json);
	if (!trigger) throw new Error(`workflow "${json.name}" has no Manual Trigger to start from`);
	const started = Date.now();
	const logStart = server.logs().length;
	const { id: _ignored, ...withoutId } = json;
	const id = await rest.saveWorkflow(withoutId as WorkflowJson);
	// n8n 1.x and 2.8 run the posted workflowData; 2.41 reads the saved one and drops the field.
	const answer = await rest.call<{ executionId?: string; waitingForWebhook?: boolean }>(
		'POST',
		`/rest/workflows/${id}/run`,
		{ workflowData: { ...withoutId, id }, triggerToStartFrom: { name: trigger } },
	);
	if (!answer?.executionId)
		throw new Error(`n8n did not start "${json.name}": ${JSON.stringify(answer)}`);
	const deadline = started + timeoutMs;
	// Its status first (its data is stored once it ends), then the whole execution.
	for (;;) {
		let polled: { status: string; stoppedAt?: string };
		try {
			polled = await rest.call('GET', `/rest/executions/${answer.executionId}`);
		} catch (error) {
			// n8n 1.123.81 reset a poll's connection now and then while a long run was going on
			// (read ECONNRESET, the server still up); a poll is a read, so it is asked again.
			if (Date.now() > deadline) throw error;
			await new Promise((resolve) => setTimeout(resolve, 500));
			continue;
		}
		const { status, stoppedAt } = polled;
		if (SETTLED(status) && stoppedAt) break;
		if (Date.now() > deadline)
			throw new Error(
				`execution ${answer.executionId} of "${json.name}" still ${status} after ${timeoutMs} ms`,
			);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const execution = await rest.execution(answer.executionId);
	const ok = execution.status === 'success' && !execution.error;
	const result: ExecuteResult = {
		ok,
		exitCode: ok ? 0 : 1,
		runData: execution.runData,
		error: execution.error,
		// What n8n printed while it ran, and the run itself, as `n8n execute --rawOutput` gives them.
		stdout: `${server.logs().slice(logStart)}\n${JSON.stringify({ data: { resultData: { runData: execution.runData, error: execution.error } } })}`,
		stderr: '',
		durationMs: Date.now() - started,
	};
	recordForSecretScan('n8n execution (served n8n)', result.stdout);
	logRun('run (served n8n)', result);
	return result;
}
