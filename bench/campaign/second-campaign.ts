/**
 * A second campaign on the database the first ran on: what a campaign adds once the database has
 * run one, which is what a self-hosted n8n running one campaign after another pays in disk.
 *
 * Why it is measured apart: n8n 2.8.4's worker writes every execution's data whole when it ends,
 * even one its workflow says not to keep (hookFunctionsSaveWorker), and the main then deletes it.
 * A batch of 1,000 SMS writes about 295 KB that way (bench/results: BENCH_KEEP_BATCHES=1), and 100
 * batches end within 10 s, before Postgres's autovacuum (every minute by default) marks their space
 * free. On a new database that space is new disk: the first campaign's growth counts it.
 *
 * What the next campaign adds is measured from the database's size when the first ended to its
 * size when the second ended. Measured from the vacuum instead, it would count the same space
 * again: the vacuum gives the empty end of the TOAST table back to the system (measured: 5,000 SMS,
 * the second campaign +115 KB per 1,000 in execution tables counted from the vacuum), and the next
 * campaign's executions take it back, up to the same high-water mark.
 */
import type { ReplyServer } from '../reply-server';
import {
	type Growth,
	type Psql,
	type Sizes,
	executionDataDeadRows,
	executionDataToastVacuums,
	growth,
	sizes,
} from './postgres';

/** Autovacuum wakes every minute by default (autovacuum_naptime); three chances, then go on. */
const VACUUM_WAIT_MS = 180_000;
const POLL_MS = 2000;

export interface SecondCampaign {
	/** Seconds until Postgres had vacuumed execution_data's TOAST table; undefined: not seen. */
	vacuumWaitS: number | undefined;
	wallS: number;
	distinct: number;
	notSent: number;
	doubled: number;
	/** From the end of the first campaign to the end of the second: what the second added. */
	growth: Growth;
	/** What the vacuum between gave back (negative) and what the second then took. */
	byVacuum: Growth;
	sinceVacuum: Growth;
}

/**
 * Waits until execution_data's TOAST table, where the space lies, was vacuumed since `since`
 * (bounded). The table itself holds a small row per execution: with fewer than 50 deleted (a
 * campaign of under 50,000) autovacuum leaves it alone, by its own threshold.
 */
async function waitForVacuum(db: Psql, since: number): Promise<number | undefined> {
	const started = Date.now();
	while (Date.now() - started < VACUUM_WAIT_MS) {
		if (executionDataToastVacuums(db) > since) return (Date.now() - started) / 1000;
		await new Promise((resolve) => setTimeout(resolve, POLL_MS));
	}
	return undefined;
}

/**
 * After the first campaign settled (`vacuumsAtEnd` read then): waits for the vacuum, then runs the
 * campaign again under another name, so every recipient is sent again, and measures it.
 */
export async function runSecondCampaign(options: {
	db: Psql;
	server: ReplyServer;
	/** executionDataToastVacuums when the first campaign settled. */
	vacuumsAtEnd: number;
	/** The database's sizes when the first campaign ended. */
	firstEnd: Sizes;
	count: number;
	/** Resets the reply server as for the first campaign. */
	resetServer: () => Promise<void>;
	/** Posts the campaign under `campaign`, resolves once it answered (its plan). */
	start: (campaign: string) => Promise<string>;
	/** Waits until every execution started after `since` settled. */
	settle: (since: number) => Promise<void>;
	log: (message: string) => void;
}): Promise<SecondCampaign> {
	const { db, server, count, log } = options;
	const vacuumWaitS = await waitForVacuum(db, options.vacuumsAtEnd);
	log(
		vacuumWaitS === undefined
			? `second campaign: no vacuum of execution_data seen in ${VACUUM_WAIT_MS / 1000} s (${executionDataDeadRows(db)}); running it anyway`
			: `second campaign: execution_data's TOAST table vacuumed after ${vacuumWaitS.toFixed(0)} s`,
	);
	const afterVacuum = sizes(db);
	await options.resetServer();
	const postedAt = Date.now();
	await options.start('bench-again');
	await options.settle(postedAt);
	const stats = await server.stats();
	const wallS = (Date.now() - postedAt) / 1000;
	const end = sizes(db);
	const grown = growth(options.firstEnd, end);
	const byVacuum = growth(options.firstEnd, afterVacuum);
	const sinceVacuum = growth(afterVacuum, end);
	const per1000 = (bytes: number) => (bytes / 1024 / (count / 1000)).toFixed(1);
	log(
		`second campaign: ${stats.distinct} sent, ${stats.doubles} twice; Postgres ${per1000(grown.databaseBytes)} KB per 1,000 over the first's end (the vacuum ${per1000(byVacuum.databaseBytes)}, the second campaign then ${per1000(sinceVacuum.databaseBytes)})`,
	);
	return {
		vacuumWaitS,
		wallS,
		distinct: stats.distinct,
		notSent: count - stats.distinct,
		doubled: stats.doubles,
		growth: grown,
		byVacuum,
		sinceVacuum,
	};
}
