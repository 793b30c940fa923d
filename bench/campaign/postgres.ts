/**
 * Reads the queue cluster's Postgres with psql (Debian's, beside the server): database and table
 * sizes, and the executions n8n stored, straight from its tables. Straight SQL, because n8n's REST
 * API lists executions 100 at a time and the figures wanted (bytes per table) are not in it.
 */
import { execFileSync } from 'child_process';
import * as path from 'path';

import { POSTGRES_DATABASE, POSTGRES_USER, postgresBin } from '../../test/queue/cluster/services';

export interface Psql {
	/** Rows of a query, each a list of text columns (psql's unaligned output). */
	rows(sql: string): string[][];
}

export function psql(port: number): Psql {
	const bin = postgresBin();
	if (!bin) throw new Error('Postgres is not installed');
	return {
		rows(sql) {
			// -A -t: bare rows; -F: the unit separator between fields (text never holds it).
			const out = execFileSync(
				path.join(bin, 'psql'),
				[
					...['-h', '127.0.0.1', '-p', String(port), '-U', POSTGRES_USER, '-d', POSTGRES_DATABASE],
					...['-X', '-q', '-A', '-t', '-F', '\u001f', '-v', 'ON_ERROR_STOP=1', '-c', sql],
				],
				{ encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
			);
			return out
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => line.split('\u001f'));
		},
	};
}

export interface Sizes {
	databaseBytes: number;
	/** Each table of n8n's schema with its indexes and TOAST (pg_total_relation_size). */
	tables: Record<string, number>;
}

export function sizes(db: Psql): Sizes {
	const [[database]] = db.rows(`SELECT pg_database_size('${POSTGRES_DATABASE}');`);
	const tables: Record<string, number> = {};
	for (const [name, bytes] of db.rows(
		`SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r';`,
	)) {
		tables[name] = Number(bytes);
	}
	return { databaseBytes: Number(database), tables };
}

/** How a growth splits: n8n's execution tables, the data tables (the campaign's record), the rest. */
export interface Growth {
	databaseBytes: number;
	executionData: number;
	/** execution_entity, execution_metadata and other execution_* tables beside execution_data. */
	executionOther: number;
	dataTables: number;
	other: number;
}

export function growth(before: Sizes, after: Sizes): Growth {
	const result: Growth = {
		databaseBytes: after.databaseBytes - before.databaseBytes,
		executionData: 0,
		executionOther: 0,
		dataTables: 0,
		other: 0,
	};
	for (const [name, bytes] of Object.entries(after.tables)) {
		const delta = bytes - (before.tables[name] ?? 0);
		if (name === 'execution_data') result.executionData += delta;
		else if (name.startsWith('execution')) result.executionOther += delta;
		else if (name.startsWith('data_table_user_')) result.dataTables += delta;
		else result.other += delta;
	}
	return result;
}

export interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	startedAt: number | undefined;
	stoppedAt: number | undefined;
}

/** Every execution n8n stored, with its times in ms since the epoch. */
export function executions(db: Psql): ExecutionRow[] {
	return db
		.rows(
			`SELECT id, "workflowId", status, extract(epoch from "startedAt") * 1000, extract(epoch from "stoppedAt") * 1000 FROM execution_entity ORDER BY id;`,
		)
		.map(([id, workflowId, status, startedAt, stoppedAt]) => ({
			id: Number(id),
			workflowId,
			status,
			startedAt: startedAt ? Number(startedAt) : undefined,
			stoppedAt: stoppedAt ? Number(stoppedAt) : undefined,
		}));
}

/** Every row of a data table (n8n's `data_table_user_<id>`), as JSON objects. */
export function dataTableRows(db: Psql, dataTableId: string): Array<Record<string, unknown>> {
	const table = `data_table_user_${dataTableId.replace(/[^A-Za-z0-9_]/g, '')}`;
	return db
		.rows(`SELECT row_to_json(t) FROM "${table}" t ORDER BY id;`)
		.map(([json]) => JSON.parse(json) as Record<string, unknown>);
}

/** Bytes of the execution data n8n kept, per workflow (the text as stored, before compression). */
export function executionDataBytes(db: Psql): Record<string, number> {
	const result: Record<string, number> = {};
	for (const [workflowId, bytes] of db.rows(
		`SELECT e."workflowId", COALESCE(SUM(octet_length(d.data)), 0) FROM execution_data d JOIN execution_entity e ON e.id = d."executionId" GROUP BY 1;`,
	)) {
		result[workflowId] = Number(bytes);
	}
	return result;
}

/** execution_data's TOAST table, where an execution's data itself lies (in 2 KB chunks). */
const EXECUTION_DATA_TOAST = `(SELECT reltoastrelid FROM pg_class WHERE oid = 'execution_data'::regclass)`;

/** How many times Postgres has vacuumed execution_data's TOAST table. */
export function executionDataToastVacuums(db: Psql): number {
	const [[count]] = db.rows(
		`SELECT autovacuum_count + vacuum_count FROM pg_stat_all_tables WHERE relid = ${EXECUTION_DATA_TOAST};`,
	);
	return Number(count);
}

/** execution_data's and its TOAST table's live and dead rows and last autovacuum, for the log. */
export function executionDataDeadRows(db: Psql): string {
	return db
		.rows(
			`SELECT relname, n_live_tup, n_dead_tup, COALESCE(last_autovacuum::text, 'never') FROM pg_stat_all_tables WHERE relid IN ('execution_data'::regclass, ${EXECUTION_DATA_TOAST});`,
		)
		.map(
			([name, live, dead, last]) => `${name}: ${live} live, ${dead} dead, last autovacuum ${last}`,
		)
		.join('; ');
}
