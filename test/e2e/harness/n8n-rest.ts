/**
 * What the editor does through n8n's REST API, for the queue-mode suite and the example workflows:
 * store credentials, save and activate (publish) workflows, read executions with their run data
 * (n8n stores it "flatted").
 */
import { parse } from 'flatted';

import { setUpOwner, signIn } from './n8n-owner';
import type { RunData, WorkflowJson } from './run-workflow';

export interface ExecutionSummary {
	id: string;
	status: string;
	mode: string;
	startedAt?: string;
	stoppedAt?: string;
}

export interface ExecutionDetail extends ExecutionSummary {
	runData: RunData;
	error?: Record<string, unknown>;
	/** The execution's data as n8n stored it (flatted JSON): its length is what the write cost. */
	data: string;
}

export class N8nRest {
	private constructor(
		readonly url: string,
		private readonly cookie: string,
	) {}

	/** Signs in as the owner an n8n already has (a shared server's: shared-n8n.ts). */
	static async signedIn(url: string): Promise<N8nRest> {
		return new N8nRest(url, await signIn(url));
	}

	/** Makes the owner of a fresh n8n and signs in. */
	static async owner(url: string): Promise<N8nRest> {
		await setUpOwner(url);
		return new N8nRest(url, await signIn(url));
	}

	async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.url}${path}`, {
			method,
			headers: { 'content-type': 'application/json', cookie: this.cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(`${method} ${path}: HTTP ${response.status} ${await response.text()}`);
		return ((await response.json()) as { data: T }).data;
	}

	async createCredential(name: string, type: string, data: Record<string, string>) {
		return await this.call<{ id: string; name: string }>('POST', '/rest/credentials', {
			name,
			type,
			data,
		});
	}

	/** Saves a workflow without activating it; its id. */
	async saveWorkflow(json: WorkflowJson): Promise<string> {
		return (await this.save(json)).id;
	}

	/** Saves the workflow and activates (publishes) its current version, as the editor's toggle. */
	async activateWorkflow(json: WorkflowJson): Promise<string> {
		const saved = await this.save(json);
		await this.call('POST', `/rest/workflows/${saved.id}/activate`, {
			versionId: saved.versionId,
		});
		return saved.id;
	}

	private async save(json: WorkflowJson): Promise<{ id: string; versionId: string }> {
		return await this.call<{ id: string; versionId: string }>('POST', '/rest/workflows', {
			...json,
			active: false,
		});
	}

	/** The node types the editor loads (its nodes panel, an AI Agent's Tool picker). */
	async nodeTypes<T>(): Promise<T[]> {
		const response = await fetch(`${this.url}/types/nodes.json`, {
			headers: { cookie: this.cookie },
		});
		if (!response.ok) throw new Error(`GET /types/nodes.json: HTTP ${response.status}`);
		return (await response.json()) as T[];
	}

	/** The signed-in user's own project, where the editor saves a new workflow. */
	async personalProjectId(): Promise<string> {
		return (await this.call<{ id: string }>('GET', '/rest/projects/personal')).id;
	}

	/** The workflow as n8n stored it (credentials resolved, ids assigned). */
	async workflow(id: string): Promise<WorkflowJson> {
		return await this.call<WorkflowJson>('GET', `/rest/workflows/${id}`);
	}

	async executions(workflowId: string): Promise<ExecutionSummary[]> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.call<{ results: ExecutionSummary[] }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=100`,
		);
		return page.results;
	}

	/** How many executions the workflow has (any status): n8n's count, not one page. */
	async executionCount(workflowId: string): Promise<number> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const page = await this.call<{ count: number }>(
			'GET',
			`/rest/executions?filter=${filter}&limit=1`,
		);
		return page.count;
	}

	async execution(id: string): Promise<ExecutionDetail> {
		const raw = await this.call<ExecutionSummary & { data: string }>(
			'GET',
			`/rest/executions/${id}`,
		);
		const data = parse(raw.data) as {
			resultData?: { runData?: RunData; error?: Record<string, unknown> };
		};
		return {
			...raw,
			runData: data.resultData?.runData ?? {},
			error: data.resultData?.error,
		};
	}

	/** Polls until the workflow has `count` executions that are no longer new/running/waiting. */
	async settledExecutions(
		workflowId: string,
		count: number,
		timeoutMs = 120_000,
	): Promise<ExecutionSummary[]> {
		const deadline = Date.now() + timeoutMs;
		let last: ExecutionSummary[] = [];
		while (Date.now() < deadline) {
			last = await this.executions(workflowId);
			const done = last.filter((entry) => !['new', 'running', 'waiting'].includes(entry.status));
			if (done.length >= count) return done;
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		throw new Error(
			`workflow ${workflowId}: ${count} settled executions expected, have ${JSON.stringify(last)}`,
		);
	}
}
