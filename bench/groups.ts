/** Benchmark 3: Group > Get Many with Return All at 1,000 and 10,000 groups. */
import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { executeMeasured, nodeTimeMs, outputItems, round, runFailure } from './measure';
import { type Section, goal, num } from './report';
import { LATENCY_MS } from './sends';
import { TARGET } from './workflows';

export const GROUP_COUNTS = [1_000, 10_000] as const;
/** What the node asks for and the sandbox allows (the sandbox's maxPerPage). */
const PAGE_SIZE = 100;

interface GroupsRun {
	groups: number;
	ok: boolean;
	failure?: string;
	items: number;
	pages: number;
	nodeMs: number;
	processMs: number;
	peakRssMb: number;
}

export async function benchGroups(
	folder: UserFolder,
	sandbox: Sandbox,
	workflowId: string,
	log: (message: string) => void,
): Promise<Section> {
	const runs: GroupsRun[] = [];
	for (const groups of GROUP_COUNTS) {
		log(`groups: Return All over ${groups} groups`);
		sandbox.reset();
		sandbox.setOptions({ groupCount: groups, latencyMs: LATENCY_MS });
		const run = await executeMeasured(folder, workflowId);
		runs.push({
			groups,
			ok: run.ok,
			failure: run.ok ? undefined : runFailure(run),
			items: outputItems(run, TARGET).length,
			pages: sandbox.requests.filter((request) => request.path === '/v1/groups/fetch').length,
			nodeMs: nodeTimeMs(run, TARGET),
			processMs: run.processMs,
			peakRssMb: round(run.peakRssMb),
		});
	}
	const [small, large] = runs;
	const perGroup = (run: GroupsRun) => run.nodeMs / run.groups;
	const growth = perGroup(large) / perGroup(small);
	const complete = runs.every(
		(run) => run.ok && run.items === run.groups && run.pages === Math.ceil(run.groups / PAGE_SIZE),
	);
	return {
		title: `3. Group > Get Many, Return All, ${LATENCY_MS} ms sandbox latency`,
		notes: [
			`${PAGE_SIZE} groups per page; one run each; node ms is the node's own execution time.`,
			...runs
				.filter((run) => run.failure)
				.map((run) => `${run.groups} groups failed: ${run.failure}`),
		],
		columns: [
			'groups',
			'pages',
			'items out',
			'node ms',
			'ms / page',
			'ms / 1,000 groups',
			'process s',
			'peak MB',
		],
		rows: runs.map((run) => [
			run.groups.toLocaleString('en'),
			String(run.pages),
			run.items.toLocaleString('en'),
			num(run.nodeMs),
			num(run.nodeMs / run.pages, 1),
			num((run.nodeMs * 1000) / run.groups),
			num(run.processMs / 1000, 1),
			num(run.peakRssMb),
		]),
		goals: [
			goal(
				'every group listed, one request per page of 100',
				runs.map((run) => `${run.items}/${run.groups} in ${run.pages} pages`).join(', '),
				complete,
			),
			goal(
				'linear growth (bench criterion): time per group at 10,000 ≤ 1.5 × at 1,000',
				`${num(growth, 2)}× (${num(large.nodeMs / small.nodeMs, 1)}× the time for 10× the groups)`,
				growth <= 1.5,
			),
		],
		data: {
			n8n: folder.n8n.version,
			latencyMs: LATENCY_MS,
			pageSize: PAGE_SIZE,
			runs,
			timePerGroupGrowth: round(growth, 3),
		},
	};
}
