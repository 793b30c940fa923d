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
export const CAMPAIGN_TABLE = 'smsleopard_campaigns';

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

/**
 * The example as shipped, with the test's credential (by id, as the editor stores it once picked) and
 * the SMSLeopard node's Request Options changed only as `requestOptions` says (the test's speed).
 */
export function campaignWorkflow(
	file: string,
	credential: Credential,
	requestOptions: Record<string, unknown> = {},
	tableForN8n1?: { id: string; n8nVersion: string },
): WorkflowJson {
	const workflow = readCampaignExample(file);
	for (const entry of workflow.nodes) {
		// n8n 1.x finds no data table by name: the README has the user pick it from the list in each
		// Data table node, which stores its id.
		if (tableForN8n1?.n8nVersion.startsWith('1.') && entry.type === 'n8n-nodes-base.dataTable') {
			entry.parameters.dataTableId = {
				__rl: true,
				mode: 'list',
				value: tableForN8n1.id,
				cachedResultName: CAMPAIGN_TABLE,
			};
		}
		if (entry.credentials) entry.credentials = { smsLeopardApi: credential };
		if (entry.type === 'n8n-nodes-smsleopard.smsLeopard') {
			entry.parameters.requestOptions = {
				...(entry.parameters.requestOptions as Record<string, unknown>),
				...requestOptions,
			};
		}
	}
	return workflow;
}

/** The webhook path of the example's Webhook node named `name`. */
export function webhookPath(file: string, name: string): string {
	const found = readCampaignExample(file).nodes.find((entry) => entry.name === name);
	return String(found?.parameters.path);
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

export class CampaignTable {
	constructor(
		private readonly rest: N8nRest,
		readonly projectId: string,
		readonly id: string,
	) {}

	async rows(campaign?: string): Promise<CampaignRow[]> {
		const rows: CampaignRow[] = [];
		for (let skip = 0; ; skip += 100) {
			const page = await this.rest.call<{ count: number; data: CampaignRow[] }>(
				'GET',
				`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?take=100&skip=${skip}`,
			);
			rows.push(...page.data);
			if (page.data.length < 100) break;
		}
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
	put(name: string, rows: Array<{ phone: string; name: string }>): void;
	stop(): Promise<void>;
}> {
	const lists = new Map<string, string>();
	const server: Server = createServer((request, response) => {
		const csv = lists.get(String(request.url).replace(/^\/|\.csv$/g, ''));
		response.writeHead(csv === undefined ? 404 : 200, { 'content-type': 'text/csv' });
		response.end(csv ?? 'no such list');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	return {
		url: (name) => `http://127.0.0.1:${port}/${name}.csv`,
		put: (name, rows) =>
			lists.set(name, ['phone,name', ...rows.map((row) => `${row.phone},${row.name}`)].join('\n')),
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
