/**
 * The campaign bench's table: one row per case (median, with min–max when repeated), the goals of
 * issues 45 and 53 with PASS/MISS, and the kill case's outcome in words.
 */
import { type Section, goal, printSection } from '../report';
import { showSpread, spread } from '../spread';
import type { Growth } from './postgres';
import { LIMIT_PER_SECOND, type CaseRun, type CaseSpec } from './run-case';
import { CAMPAIGN_WORKER_CONCURRENCY } from '../../test/queue/cluster/campaign-workers';

/**
 * Issue 53's goals, which tightened issue 45's (1.2 ×, 500 MB): the limit sets the pace, and every
 * worker (n8n with its task runner) stays under 450 MB, one campaign or five in a row.
 */
export const WALL_FACTOR = 1.05;
export const WORKER_PEAK_GOAL_MB = 450;
export const IN_A_ROW_WORKER_GOAL_MB = 450;
export const IN_A_ROW_MAIN_GOAL_MB = 600;
/** A tenth of 450 KB per 1,000 recipients (one 100,000-send execution in n8n 2.8.4 on SQLite). */
export const PG_KB_PER_1000_GOAL = 45;

const kb = (bytes: number) => bytes / 1024;

/** Each worker's peak, the one that ran the campaign's parent (the whole list) marked. */
const workerPeaks = (run: CaseRun): string =>
	Object.entries(run.workers)
		.map(
			([name, peak]) =>
				`${name} ${peak.peakMb.toFixed(0)} MB${run.triggerRanOn?.includes(name) ? ' (ran the campaign)' : ''}`,
		)
		.join(', ');

type Per1000 = (bytes: number) => number;

/** "X KB (execution tables Y, <record> Z)" per 1,000 over the runs, for the growth `of` each run. */
function growthText(
	list: CaseRun[],
	per1000: Per1000,
	of: (run: CaseRun) => Growth | undefined,
	record: string,
): string {
	const part = (pick: (grown: Growth) => number) =>
		showSpread(
			spread(
				list.map((run) => {
					const grown = of(run);
					return grown ? per1000(pick(grown)) : Number.NaN;
				}),
			),
			1,
		);
	return `${part((grown) => grown.databaseBytes)} KB (execution tables ${part((grown) => grown.executionData + grown.executionOther)}, ${record} ${part((grown) => grown.dataTables)})`;
}

const firstGrowth = (list: CaseRun[], per1000: Per1000) =>
	growthText(list, per1000, (run) => run.pg, "the campaign's record");

/** The growth goal on the case's one campaign, on a new database. */
function firstGrowthGoal(spec: CaseSpec, list: CaseRun[], per1000: Per1000) {
	return goal(
		`${spec.label}: Postgres growth ≤ ${PG_KB_PER_1000_GOAL} KB per 1,000 recipients`,
		firstGrowth(list, per1000),
		list.every((run) => per1000(run.pg.databaseBytes) <= PG_KB_PER_1000_GOAL),
	);
}

/**
 * The growth goal on the second campaign (second-campaign.ts): what each campaign adds once the
 * database ran one. The first campaign's growth, on a new database, is shown beside it.
 */
function steadyGrowthGoal(spec: CaseSpec, list: CaseRun[], per1000: Per1000) {
	const second = list.map((run) => run.again);
	const grown = (run: CaseRun) => per1000(run.again?.growth.databaseBytes ?? Number.NaN);
	return goal(
		`${spec.label}: Postgres growth ≤ ${PG_KB_PER_1000_GOAL} KB per 1,000 recipients, per campaign once the database ran one (the same campaign run again once Postgres vacuumed; from the size when the first ended to the size when the second did)`,
		`${growthText(list, per1000, (run) => run.again?.growth, 'its record')}; vacuumed after ${second.map((again) => (again?.vacuumWaitS === undefined ? 'not seen' : `${again.vacuumWaitS.toFixed(0)} s`)).join(', ')}; ${second.map((again) => `${again?.notSent ?? '?'} not sent, ${again?.doubled ?? '?'} twice`).join(', ')}. The first campaign, on a new database: ${firstGrowth(list, per1000)}`,
		list.every((run) => grown(run) <= PG_KB_PER_1000_GOAL),
	);
}

export function printCampaignTable(
	cases: CaseSpec[],
	runs: Record<string, CaseRun[]>,
	failures: Record<string, string[]>,
	conditions: Record<string, unknown>,
): Section {
	const count = Number(conditions.recipients);
	const per1000 = (bytes: number) => kb(bytes) / (count / 1000);
	const idealS = count / LIMIT_PER_SECOND;
	const rows: Array<Array<string | number>> = [];
	const goals: Section['goals'] = [];
	const notes = Object.entries(conditions).map(([key, value]) => `${key}: ${String(value)}`);
	for (const spec of cases) {
		const list = runs[spec.name] ?? [];
		if (list.length === 0) {
			rows.push([spec.label, 'failed', ...Array(16).fill('n/a')]);
			goals.push(
				goal(`${spec.label} ran`, (failures[spec.name] ?? ['no run'])[0].slice(0, 200), false),
			);
			continue;
		}
		const show = (pick: (run: CaseRun) => number, digits = 0) =>
			showSpread(spread(list.map(pick)), digits);
		rows.push([
			spec.label,
			show((run) => run.wallS, 1),
			show((run) => run.wallS / idealS, 2),
			show((run) => run.sendsPerS),
			show((run) => run.requestsPerS),
			show((run) => run.steadyRequestsPerS),
			show((run) => run.refused429),
			show((run) => run.notSent),
			show((run) => run.doubled),
			show((run) => run.busiestSecond),
			show((run) => run.maxWorkerPeakMb),
			show((run) => run.workerCpuMsPerSend, 2),
			show((run) => run.mainCpuMsPerSend, 2),
			show((run) => run.storeCpuMsPerSend, 2),
			show((run) => per1000(run.pg.databaseBytes), 1),
			show((run) => per1000(run.pg.executionData + run.pg.executionOther), 1),
			show((run) => per1000(run.pg.dataTables), 1),
			spec.again ? show((run) => per1000(run.again?.growth.databaseBytes ?? Number.NaN), 1) : '–',
			show((run) => run.serverCpuMs),
		]);
		const worst = <T>(pick: (run: CaseRun) => T) => list.map(pick);
		if (spec.kill) {
			const outcomes = list.map((run) => run.kill);
			goals.push(
				goal(
					`${spec.label}: everyone sent exactly once, apart from at most the killed worker's batches (${CAMPAIGN_WORKER_CONCURRENCY}) recorded as maybe sent`,
					outcomes
						.map((kill) =>
							kill
								? `killed after ${kill.sentAtKill} sends (${kill.replacement ? 'a replacement at once, stalled-job checks every 5 s' : "no replacement, n8n's own stalled-job checks"}; n8n ended the killed execution ${kill.noticedAfterS === undefined ? 'never' : `${kill.noticedAfterS.toFixed(0)} s`} after; ${kill.ratesAroundKill.before.toFixed(0)} sends a second in the 10 s before, ${kill.ratesAroundKill.after.toFixed(0)} from 20 to 30 s after); ${kill.sentBeforeRerun} sent before the rerun, which posted ${kill.rerunBatches} batch(es) and sent ${kill.rerunSends}; ${kill.sendingRows} row(s) left "sending", ${kill.maybeSent} maybe sent, ${kill.neverSent} never sent (${kill.neverSentOutsideMaybe} of them outside the maybe-sent batches)`
								: 'n/a',
						)
						.join(' | '),
					outcomes.every((kill) => kill?.pass === true) &&
						worst((run) => run.doubled).every((n) => n === 0),
				),
			);
			continue;
		}
		if (spec.inARow) {
			const series = list.flatMap((run) => run.inARow ?? []);
			const worst = (pick: (name: string) => boolean) =>
				Math.max(
					...series.flatMap((each) =>
						Object.entries(each.peaksMb)
							.filter(([name]) => pick(name))
							.map(([, mb]) => mb),
					),
				);
			const perCampaign = series
				.map(
					(each) =>
						`${each.campaign}: ${each.wallS.toFixed(1)} s, ${Object.entries(each.peaksMb)
							.map(([name, mb]) => `${name} ${mb}`)
							.join(', ')} MB`,
				)
				.join(' | ');
			goals.push(
				goal(
					`${spec.label}: every worker ≤ ${IN_A_ROW_WORKER_GOAL_MB} MB and the main ≤ ${IN_A_ROW_MAIN_GOAL_MB} MB in each campaign`,
					perCampaign,
					worst((name) => name.startsWith('worker')) <= IN_A_ROW_WORKER_GOAL_MB &&
						worst((name) => name === 'main') <= IN_A_ROW_MAIN_GOAL_MB,
				),
			);
			continue;
		}
		if (spec.shape === 'campaign' && spec.sender === 'node') {
			const wall = spread(list.map((run) => run.wallS));
			goals.push(
				goal(
					`${spec.label}: wall time ≤ ${WALL_FACTOR} × N / limit (${(WALL_FACTOR * idealS).toFixed(0)} s)`,
					`${showSpread(wall, 1)} s`,
					wall.max <= WALL_FACTOR * idealS,
				),
				goal(
					`${spec.label}: 0 not sent, 0 sent twice`,
					`${worst((run) => run.notSent).join('/')} not sent, ${worst((run) => run.doubled).join('/')} twice`,
					list.every((run) => run.notSent === 0 && run.doubled === 0),
				),
				goal(
					`${spec.label}: peak RSS per worker (its process group) ≤ ${WORKER_PEAK_GOAL_MB} MB`,
					`${show((run) => run.maxWorkerPeakMb)} MB at most; ${list.map(workerPeaks).join(' | ')}`,
					list.every((run) => run.maxWorkerPeakMb <= WORKER_PEAK_GOAL_MB),
				),
				spec.again ? steadyGrowthGoal(spec, list, per1000) : firstGrowthGoal(spec, list, per1000),
			);
		}
	}
	const section: Section = {
		title: `Campaign in queue mode: ${count.toLocaleString('en')} recipients per case`,
		notes,
		columns: [
			'case',
			'wall s',
			'x ideal',
			'sends/s',
			'req/s',
			'steady req/s',
			'429s',
			'not sent',
			'twice',
			'busiest s',
			'peak MB/worker',
			'worker CPU ms/send',
			'main CPU ms/send',
			'PG+Redis CPU ms/send',
			'PG KB/1k',
			'exec KB/1k',
			'record KB/1k',
			'PG KB/1k 2nd',
			'server CPU ms',
		],
		rows,
		goals,
		data: runs,
	};
	printSection(section);
	return section;
}
