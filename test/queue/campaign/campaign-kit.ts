/**
 * What the campaign suite needs around the cluster: the shipped example workflows read from
 * examples/ with the test's credential and speed put in, the campaign's data table created and read
 * through n8n's REST API (as the editor does), a server handing out a recipient list as one CSV
 * (as a published Google Sheet does), and the data table's size in Postgres.
 */
import { execFileSync } from 'child_process';
import { existsSync, readFileSync, readdirSync } from 'fs';
import { type Server, createServer } from 'http';
import * as path from 'path';

import type { N8nRest, WorkflowJson } from '../../e2e/harness';
import { EXAMPLES_DIR } from '../../e2e/workflows/examples';

export const CAMPAIGN_FILE = 'campaign-100000-recipients.json';
export const BATCH_FILE = 'campaign-batch-whatsapp-template.json';
export const SMS_BATCH_FILE = 'campaign-batch-sms.json';
/** The workflow the campaign's Plan the Campaign runs: list, record, plan, rows and posts. */
export const PLAN_FILE = 'campaign-plan.json';
/** The node of the campaign that runs the plan, where the owner picks the plan workflow. */
export const PLAN_NODE = 'Plan the Campaign';
export const CAMPAIGN_TABLE = 'smsleopard_campaigns';
/** The opt-out list the campaign and its batches read (test/queue/campaign/opt-out-list.ts). */
export const OPT_OUT_TABLE = 'smsleopard_opt_outs';
/** The Header Auth credential both webhooks and Queue Batch name, and the header it checks. */
export const CAMPAIGN_KEY_CREDENTIAL = 'SMSLeopard campaign key';
export const CAMPAIGN_KEY_HEADER = 'X-Campaign-Key';

/** The columns the parent's sticky note tells the marketer to create. */
export const CAMPAIGN_COLUMNS = [
	...['campaign', 'batch', 'status', 'recipients', 'sent', 'maybeSent', 'notSent'].map((name) => ({
		name,
		type: 'string',
	})),
	...['sentCount', 'maybeSentCount', 'notSentCount', 'cost'].map((name) => ({
		name,
		type: 'number',
	})),
];

type Credential = { id: string; name: string };
interface ExampleNode {
	name: string;
	type: string;
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string | null; name: string }>;
	[key: string]: unknown;
}

interface CampaignExample extends WorkflowJson {
	nodes: ExampleNode[];
}

export function readCampaignExample(file: string): CampaignExample {
	return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, file), 'utf8')) as CampaignExample;
}

/** What the owner may change in the campaign's Campaign Settings (plain values, no expressions). */
export type CampaignSettings = Partial<{
	campaign: string;
	listLink: string;
	channel: 'whatsapp' | 'sms';
	checkOnly: boolean;
	batchSize: number;
	claimMinutes: number;
	callerMaySetListLink: boolean;
	batchWorkflowUrl: string;
}>;

/**
 * The example as shipped, with the test's credentials (by id, as the editor stores them once
 * picked: SMSLeopard on the send, the Header Auth key on the webhooks and Queue Batch), the
 * SMSLeopard node's Request Options changed only as `requestOptions` says (the test's speed), and
 * Campaign Settings changed only as `settings` says (what an owner types there).
 */
export function campaignWorkflow(
	file: string,
	credential: Credential,
	requestOptions: Record<string, unknown> = {},
	tableForN8n1?: { id: string; n8nVersion: string; optOutId?: string },
	options: {
		key?: Credential;
		formLogin?: Credential;
		settings?: CampaignSettings;
		/** The plan workflow's id, picked in Plan the Campaign (the campaign file only; '' none). */
		plan?: string;
	} = {},
): WorkflowJson {
	const workflow = readCampaignExample(file);
	for (const entry of workflow.nodes) {
		if (entry.name === PLAN_NODE) {
			// As the owner picks it from the list: the shipped file names none (ids differ per n8n).
			// '' leaves it as shipped: nothing picked.
			if (options.plan === undefined) throw new Error(`${file}: give the plan workflow's id`);
			if (options.plan !== '')
				entry.parameters.workflowId = {
					__rl: true,
					mode: 'list',
					value: options.plan,
					cachedResultName: 'SMSLeopard: plan a campaign',
				};
		}
		// n8n 1.x finds no data table by name: the README has the user pick it from the list in each
		// Data table node, which stores its id.
		const dataTable = entry.parameters.dataTableId as { value?: string } | undefined;
		const picked =
			dataTable?.value === CAMPAIGN_TABLE
				? tableForN8n1?.id
				: dataTable?.value === OPT_OUT_TABLE
					? tableForN8n1?.optOutId
					: undefined;
		if (
			tableForN8n1?.n8nVersion.startsWith('1.') &&
			entry.type === 'n8n-nodes-base.dataTable' &&
			picked !== undefined
		) {
			entry.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: picked,
				cachedResultName: dataTable?.value,
			};
		}
		if (entry.credentials?.smsLeopardApi) entry.credentials = { smsLeopardApi: credential };
		if (entry.credentials?.httpHeaderAuth && options.key)
			entry.credentials = { httpHeaderAuth: options.key };
		if (entry.credentials?.httpBasicAuth && options.formLogin)
			entry.credentials = { httpBasicAuth: options.formLogin };
		if (entry.name === 'Campaign Settings') {
			const assignments = (
				entry.parameters.assignments as { assignments: Array<{ name: string; value: unknown }> }
			).assignments;
			for (const [name, value] of Object.entries(options.settings ?? {})) {
				const found = assignments.find((assignment) => assignment.name === name);
				if (!found) throw new Error(`Campaign Settings has no ${name}`);
				found.value = value;
			}
		}
		if (entry.type === 'n8n-nodes-smsleopard.smsLeopard') {
			entry.parameters.requestOptions = {
				...(entry.parameters.requestOptions as Record<string, unknown>),
				...requestOptions,
			};
		}
	}
	return workflow;
}

/**
 * The campaign as its owner sets it up: the plan workflow published first, then the campaign
 * (with `options`) picking it in Plan the Campaign. Returns both ids.
 */
export async function publishCampaign(
	rest: N8nRest,
	credential: Credential,
	tableForN8n1: Parameters<typeof campaignWorkflow>[3],
	options: Parameters<typeof campaignWorkflow>[4] & object,
	change: (workflow: WorkflowJson) => void = () => {},
): Promise<{ campaignId: string; planId: string }> {
	// n8n 2 runs a sub-workflow's published version; n8n 1 runs it as saved, and cannot publish a
	// workflow whose only trigger is Execute Workflow Trigger.
	const save = tableForN8n1?.n8nVersion.startsWith('1.') ? 'saveWorkflow' : 'activateWorkflow';
	const planId =
		options.plan ??
		(await rest[save](campaignWorkflow(PLAN_FILE, credential, {}, tableForN8n1, options)));
	const workflow = campaignWorkflow(CAMPAIGN_FILE, credential, {}, tableForN8n1, {
		...options,
		plan: planId,
	});
	change(workflow);
	return { campaignId: await rest.activateWorkflow(workflow), planId };
}

/**
 * The campaign (or a batch workflow) renamed with `suffix` and moved to webhook path `path` (its
 * form to `path`-form), so a variant of it can be published beside the one as shipped.
 */
export function onOwnPaths(workflow: WorkflowJson, suffix: string, path: string): WorkflowJson {
	workflow.name = `${String(workflow.name)} (${suffix})`;
	for (const entry of workflow.nodes as ExampleNode[]) {
		if (entry.name === 'Campaign Webhook' || entry.name === 'Batch Webhook')
			entry.parameters.path = path;
		if (entry.name === 'Campaign Form') entry.parameters.path = `${path}-form`;
	}
	return workflow;
}

/** The path of the example's Webhook or Form Trigger (its path is an option) named `name`. */
export function webhookPath(file: string, name: string): string {
	const found = readCampaignExample(file).nodes.find((entry) => entry.name === name);
	const options = found?.parameters.options as { path?: string } | undefined;
	return String(found?.parameters.path ?? options?.path);
}

export interface CampaignRow {
	id: number;
	campaign: string;
	batch: string;
	status: string;
	recipients: string;
	sent: string | null;
	maybeSent: string | null;
	notSent: string | null;
	sentCount: number | null;
	maybeSentCount: number | null;
	notSentCount: number | null;
	cost: number | null;
}

/** The campaign table, created in the owner's project as Overview > Data tables > Create does. */
export async function createCampaignTable(rest: N8nRest): Promise<CampaignTable> {
	const projectId = await rest.personalProjectId();
	const table = await rest.call<{ id: string }>('POST', `/rest/projects/${projectId}/data-tables`, {
		name: CAMPAIGN_TABLE,
		columns: CAMPAIGN_COLUMNS,
	});
	return new CampaignTable(rest, projectId, table.id);
}

/** Every row of a data table, read page by page as n8n's REST API serves them. */
export async function dataTableRows<Row>(
	rest: N8nRest,
	projectId: string,
	id: string,
): Promise<Row[]> {
	const rows: Row[] = [];
	for (let skip = 0; ; skip += 100) {
		const page = await rest.call<{ count: number; data: Row[] }>(
			'GET',
			`/rest/projects/${projectId}/data-tables/${id}/rows?take=100&skip=${skip}`,
		);
		rows.push(...page.data);
		if (page.data.length < 100) return rows;
	}
}

export class CampaignTable {
	constructor(
		private readonly rest: N8nRest,
		readonly projectId: string,
		readonly id: string,
	) {}

	async rows(campaign?: string): Promise<CampaignRow[]> {
		const rows = await dataTableRows<CampaignRow>(this.rest, this.projectId, this.id);
		return campaign === undefined ? rows : rows.filter((row) => row.campaign === campaign);
	}

	/** What a marketer does in the table's editor: changes one batch's row. */
	async update(campaign: string, batch: string, data: Partial<CampaignRow>): Promise<void> {
		await this.rest.call('PATCH', `/rest/projects/${this.projectId}/data-tables/${this.id}/rows`, {
			filter: {
				type: 'and',
				filters: [
					{ columnName: 'campaign', condition: 'eq', value: campaign },
					{ columnName: 'batch', condition: 'eq', value: batch },
				],
			},
			data,
		});
	}

	async insert(row: Partial<CampaignRow>): Promise<void> {
		await this.rest.call('POST', `/rest/projects/${this.projectId}/data-tables/${this.id}/insert`, {
			data: [row],
			// n8n 1.x requires it; 2.x takes it too (its default is 'count').
			returnType: 'all',
		});
	}
}

/** `a,b,c` as a list; empty for null or "". */
export const listOf = (text: string | null | undefined): string[] =>
	String(text ?? '')
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean);

/** Serves recipient lists as CSV text at /<name>.csv, one GET each, like a published sheet. */
export async function startListServer(): Promise<{
	url(name: string): string;
	/** `delayMs`: the list answers that late, as a large sheet does (runs that read it overlap). */
	put(name: string, rows: Array<{ phone: string; name: string }>, delayMs?: number): void;
	/** How many times `name` was asked for (found or not). */
	reads(name: string): number;
	stop(): Promise<void>;
}> {
	const lists = new Map<string, { csv: string; delayMs: number }>();
	const reads = new Map<string, number>();
	const server: Server = createServer((request, response) => {
		const name = String(request.url).replace(/^\/|\.csv$/g, '');
		reads.set(name, (reads.get(name) ?? 0) + 1);
		const list = lists.get(name);
		setTimeout(() => {
			response.writeHead(list === undefined ? 404 : 200, { 'content-type': 'text/csv' });
			response.end(list?.csv ?? 'no such list');
		}, list?.delayMs ?? 0);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: (name) => `http://127.0.0.1:${port}/${name}.csv`,
		put: (name, rows, delayMs = 0) =>
			lists.set(name, {
				csv: ['phone,name', ...rows.map((row) => `${row.phone},${row.name}`)].join('\n'),
				delayMs,
			}),
		reads: (name) => reads.get(name) ?? 0,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

function psqlBin(): string {
	const root = '/usr/lib/postgresql';
	const version = readdirSync(root)
		.sort((a, b) => Number(b) - Number(a))
		.find((entry) => existsSync(path.join(root, entry, 'bin/psql')));
	return path.join(root, String(version), 'bin/psql');
}

/** One number from Postgres (the cluster's, trust auth on loopback). */
export function pgNumber(port: number, sql: string): number {
	const out = execFileSync(
		psqlBin(),
		['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'n8n', '-tAc', sql],
		{ encoding: 'utf8' },
	);
	return Number(out.trim());
}

/**
 * The data table's bytes in Postgres: all of it (TOAST and indexes included), or what n8n's size
 * limit counts (`pg_relation_size`, n8n's data-table.repository).
 */
export function tableBytes(
	port: number,
	tableId: string,
	which: 'all' | 'counted' = 'all',
): number {
	const size = which === 'all' ? 'pg_total_relation_size' : 'pg_relation_size';
	return pgNumber(
		port,
		`SELECT ${size}(c.oid) FROM pg_class c WHERE c.relname = 'data_table_user_${tableId}'`,
	);
}

/** Bytes of stored executions of one workflow (their data as n8n keeps it). */
export function executionBytes(port: number, workflowId: string): number {
	return pgNumber(
		port,
		`SELECT COALESCE(SUM(octet_length(d.data)), 0) FROM execution_data d JOIN execution_entity e ON e.id = d."executionId" WHERE e."workflowId" = '${workflowId}'`,
	);
}

/** The key the tests' Header Auth credential holds (a test value, never a real secret). */
export const TEST_CAMPAIGN_KEY = 'campaign-key-for-tests-0123456789';

/** Creates the Header Auth credential the examples name, holding TEST_CAMPAIGN_KEY. */
export async function createCampaignKey(rest: N8nRest): Promise<Credential> {
	return await rest.createCredential(CAMPAIGN_KEY_CREDENTIAL, 'httpHeaderAuth', {
		name: CAMPAIGN_KEY_HEADER,
		value: TEST_CAMPAIGN_KEY,
	});
}

/** The Basic Auth credential the Campaign Form asks for, and the login a test fills it in with. */
export const CAMPAIGN_FORM_CREDENTIAL = 'SMSLeopard campaign form';
export const TEST_FORM_LOGIN = { user: 'marketer', password: 'form-password-for-tests-0123456789' };

export async function createCampaignFormLogin(rest: N8nRest): Promise<Credential> {
	return await rest.createCredential(CAMPAIGN_FORM_CREDENTIAL, 'httpBasicAuth', TEST_FORM_LOGIN);
}

export interface PostAnswer {
	status: number;
	body: Record<string, unknown>;
}

/**
 * Posts JSON to a webhook as a script or a scheduler would, with the key header unless `key` is
 * null; waits (bounded) while n8n has not registered a just-activated webhook (404).
 */
export async function postJson(
	url: string,
	body: unknown,
	key: string | null = TEST_CAMPAIGN_KEY,
	signal?: AbortSignal,
): Promise<PostAnswer> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (key !== null) headers[CAMPAIGN_KEY_HEADER] = key;
	for (let attempt = 0; ; attempt++) {
		const response = await fetch(url, {
			method: 'POST',
			headers,
			body: JSON.stringify(body),
			signal,
		});
		if (response.status === 404 && attempt < 60) {
			await new Promise((resolve) => setTimeout(resolve, 250));
			continue;
		}
		const text = await response.text();
		let parsed: Record<string, unknown>;
		try {
			parsed = JSON.parse(text) as Record<string, unknown>;
		} catch {
			parsed = { text };
		}
		return { status: response.status, body: parsed };
	}
}

/** How many times each number was sent to, as digits: what the sandbox took, per phone. */
export function sendsPerPhone(destinations: string[]): Map<string, number> {
	const result = new Map<string, number>();
	for (const destination of destinations) {
		const phone = destination.replace(/\D/g, '');
		result.set(phone, (result.get(phone) ?? 0) + 1);
	}
	return result;
}

/** The numbers sent to more than once. */
export const sentTwice = (destinations: string[]): string[] =>
	[...sendsPerPhone(destinations)].filter(([, count]) => count > 1).map(([phone]) => phone);

/** The id of the owner's data table named `name`, if there is one, and the project it is in. */
export async function findDataTable(
	rest: N8nRest,
	name: string,
): Promise<{ projectId: string; id: string | undefined }> {
	const projectId = await rest.personalProjectId();
	const tables = await rest.call<{ data: Array<{ id: string; name: string }> }>(
		'GET',
		`/rest/projects/${projectId}/data-tables?take=100`,
	);
	return { projectId, id: tables.data.find((entry) => entry.name === name)?.id };
}

/** The campaign table the workflow created on its first run (n8n 2: Create Record Table If Missing). */
export async function findCampaignTable(rest: N8nRest): Promise<CampaignTable | undefined> {
	const { projectId, id } = await findDataTable(rest, CAMPAIGN_TABLE);
	return id === undefined ? undefined : new CampaignTable(rest, projectId, id);
}

/** Its columns and their types, as the data table's editor shows them. */
export async function campaignTableColumns(
	table: { projectId: string; id: string },
	rest: N8nRest,
) {
	const columns = await rest.call<Array<{ name: string; type: string }>>(
		'GET',
		`/rest/projects/${table.projectId}/data-tables/${table.id}/columns`,
	);
	return Object.fromEntries(columns.map((column) => [column.name, column.type]));
}

/** What each failed execution of a workflow says (n8n keeps the failed runs of the campaign files). */
export async function failedRunMessages(rest: N8nRest, workflowId: string): Promise<string[]> {
	const failed = (await rest.executions(workflowId)).filter((run) => run.status === 'error');
	return await Promise.all(
		failed.map(async (run) => String((await rest.execution(run.id)).error?.message ?? '')),
	);
}
