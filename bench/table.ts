/**
 * `npm run bench:table`: writes the benchmark tables of docs/performance.md (between the bench-table
 * markers) from bench/results/raw/node.json (`npm run bench -- node`), so the figures shown are the figures measured, with
 * their date, n8n version and commit.
 */
import { readFileSync, writeFileSync } from 'fs';
import * as path from 'path';
import { KNOWN_LIMIT_SHARE } from './workflows';

// The node cases' whole record, written by `npm run bench -- node` (raw data, out of git).
const RESULTS = path.join(__dirname, 'results/raw/node.json');
/** Where the figures go: the whole table for developers, the rate-limit figures for users. */
const BLOCKS = [
	{
		file: path.join(__dirname, '../docs/performance.md'),
		start: '<!-- bench-table:start (npm run bench:table writes this) -->',
		end: '<!-- bench-table:end -->',
		render: (results: Results) => renderTable(results),
	},
	{
		file: path.join(__dirname, '../docs/performance.md'),
		start: '<!-- bench-limits:start (npm run bench:table writes this) -->',
		end: '<!-- bench-limits:end -->',
		render: (results: Results) => renderLimitSummary(results),
	},
];

interface Spread {
	median: number;
	min: number;
	max: number;
	runs: number;
}
interface Results {
	generatedAt: string;
	n8n: string;
	node: string;
	commit?: string;
	repeats?: number;
	totalSeconds: number;
	machine: { cpus: number; cpuModel?: string };
	benchmarks: Record<
		string,
		{ title: string; goals: Array<{ goal: string; actual: string; pass: boolean }>; results: any }
	>;
}

const fixed = (value: number, digits: number) =>
	Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
const show = (value: Spread | undefined, digits = 2): string => {
	if (!value || !value.runs) return 'n/a';
	if (value.runs === 1) return fixed(value.median, digits);
	return `${fixed(value.median, digits)} (${fixed(value.min, digits)}–${fixed(value.max, digits)})`;
};

function sendsRows(results: any): string[] {
	const v = results.variants;
	if (!v?.nodeDefault?.seconds) return [];
	const rise = (key: string) =>
		`${fixed(v[key].peakMb.median - v.baseline.peakMb.median, 0)} MB (baseline spread ${fixed(v.baseline.peakMb.min, 0)}–${fixed(v.baseline.peakMb.max, 0)} MB)`;
	// Results from before the reply server compared with one HTTP Request variant only.
	const http = v.httpHeaderParameter ?? v.httpRequest;
	const httpKey = v.httpHeaderParameter ? 'httpHeaderParameter' : 'httpRequest';
	const rows = [
		`| ${results.sends} sends, ${results.latencyMs} ms latency, defaults | ${show(v.nodeDefault.seconds)} s, peak rise ${rise('nodeDefault')} | ${show(http.seconds)} s (key in a header parameter), peak rise ${rise(httpKey)} |`,
		`| same, 50 in parallel vs HTTP Request all at once, key in a header parameter | ${show(v.nodeConcurrency50.seconds)} s | ${show(http.seconds)} s |`,
	];
	if (v.httpHeaderAuth) {
		rows.push(
			`| same, 50 in parallel vs HTTP Request with a Header Auth credential / Basic Auth credential / Header Auth in batches of 50 | ${show(v.nodeConcurrency50.seconds)} s | ${show(v.httpHeaderAuth.seconds)} s / ${show(v.httpBasicAuth.seconds)} s / ${show(v.httpHeaderAuthBatched.seconds)} s |`,
		);
	}
	return rows;
}

function limiterRows(results: any): string[] {
	return Object.values(results.cases ?? {}).map((entry: any) => {
		const ideal = entry.idealMs / 1000;
		const cell = (f: any) =>
			`${show(f.seconds)} s (${fixed(f.seconds.median / ideal, 2)}× ideal), failed ${show(f.failed, 0)}, doubles ${show(f.doubles, 0)}`;
		return `| ${results.sends} sends at ${results.rateLimitPerSecond}/s, ${entry.label} | ${cell(entry.node)} | ${cell(entry.httpRequest)}; time: ${entry.timeVsHttp} |`;
	});
}

function scaleRows(results: any): string[] {
	const sizes = [results?.small, results?.large].filter((size) => size?.seconds);
	return sizes.map((size: any) => {
		const peak = `peak rise ${show(size.rise, 0)} MB over a Code-node-only baseline of ${show(size.baseline, 0)} MB`;
		// Results from before the live-heap runs have no such figures.
		const live = size.liveRise
			? `; kept (live heap after a full GC): ${show(size.liveRise, 1)} MB, ${show(size.liveRisePerThousand, 2)} MB per 1,000 sends`
			: `, ${show(size.risePerThousand, 1)} MB per 1,000 sends`;
		const http = size.httpSeconds
			? `${show(size.httpSeconds)} s, peak rise ${show(size.httpRise, 0)} MB`
			: '';
		return `| ${size.sends} sends, defaults | ${show(size.seconds)} s (${show(size.perSecond, 0)} sends/s), ${peak}${live} | ${http} |`;
	});
}

function smsRows(results: any): string[] {
	const v = results.variants;
	if (!v?.nodeBatched?.seconds) return [];
	const cell = (entry: any) =>
		`${show(entry.seconds)} s, ${show(entry.requests, 0)} requests, each once: ${entry.clean ? 'yes' : 'NO'}, failed items ${show(entry.errorItems, 0)}`;
	const recipients = Number(results.recipients).toLocaleString('en');
	const rows = [
		`| ${recipients} SMS, ${results.latencyMs} ms latency: node ${results.batch} per request (default) vs HTTP Request 1 request per item (all at once) | ${cell(v.nodeBatched)} | ${cell(v.httpOneByOne)} |`,
		`| same, vs HTTP Request after Code-node batches of ${results.batch} | as above | ${cell(v.httpBatched)} |`,
	];
	const reports = (v.nodeBatched.runs ?? []).filter((run: any) => run.reportMs !== undefined);
	if (reports.length)
		rows.push(
			`| after the batched send: Delivery Report > Get of its first ${reports[0].reportsRead} messages, then Account > Get Balance | ${reports.map((run: any) => `${fixed(run.reportMs / 1000, 2)} s, balance ${run.balanceAfter}`).join('; ')} | |`,
		);
	if (v.nodeOneByOne)
		rows.push(`| same, node 1 per request (10 in parallel) | ${cell(v.nodeOneByOne)} | |`);
	return rows;
}

export function renderTable(results: Results): string {
	const b = results.benchmarks;
	const rows = [
		...(b.sends ? sendsRows(b.sends.results) : []),
		...(b.limiters ? limiterRows(b.limiters.results) : []),
		...(b.scale ? scaleRows(b.scale.results) : []),
		...(b.sms ? smsRows(b.sms.results) : []),
		// The other benchmarks (groups, upload, cold load): their measured goal figures.
		...Object.entries(b)
			.filter(([name]) => !['sends', 'limiters', 'scale', 'sms'].includes(name))
			.map(
				([, section]) =>
					`| ${section.title} | ${section.goals.map((g) => g.actual).join('; ')} | |`,
			),
	];
	const goals = Object.values(b).flatMap((section) => section.goals ?? []);
	return [
		`Measured ${results.generatedAt.slice(0, 10)} with n8n ${results.n8n}, Node ${results.node}, ` +
			`${results.machine.cpus} CPU(s), commit \`${results.commit ?? 'unknown'}\`; ` +
			`${results.repeats ?? '?'} interleaved runs per figure, median (min–max); ${results.totalSeconds} s in all.`,
		'',
		'| Benchmark | SMSLeopard node | HTTP Request node |',
		'|---|---|---|',
		...rows,
		'',
		`Goals met: ${goals.filter((g) => g.pass).length} of ${goals.length}.`,
		...goals.filter((g) => !g.pass).map((g) => `- Missed: ${g.goal}: ${g.actual}`),
	].join('\n');
}

/** The README's few lines: each limiter's time and failures in real n8n, beside HTTP Request's. */
export function renderLimitSummary(results: Results): string {
	const limiters = results.benchmarks.limiters?.results;
	if (!limiters?.cases)
		return 'No full benchmark run yet: `npm run bench -- node` then `npm run bench:table`.';
	const lines = Object.values(limiters.cases).map((entry: any) => {
		const ideal = entry.idealMs / 1000;
		const f = (v: any) =>
			`${show(v.seconds, 1)} s (${fixed(v.seconds.max / ideal, 2)}× ideal at worst), ${fixed(v.failed.max, 0)} failed, ${fixed(v.doubles.max, 0)} sent twice`;
		// Runs before the known-limit variant was added have no figures for it.
		const known = entry.nodeKnownLimit ? f(entry.nodeKnownLimit) : 'not measured';
		return `| ${entry.label} | ${fixed(ideal, 0)} s | ${f(entry.node)} | ${known} | ${f(entry.httpRequest)} |`;
	});
	return [
		`In real n8n ${results.n8n} (\`npm run bench -- limiters\`, ${results.generatedAt.slice(0, 10)}, commit ` +
			`\`${results.commit ?? 'unknown'}\`), ${limiters.sends.toLocaleString('en')} sends to an account allowed ` +
			`${limiters.rateLimitPerSecond} per second, median (min–max) of ${limiters.repeats} runs, ` +
			'beside the HTTP Request node at its best for a known limit (batches of 100 a second, Retry On ' +
			'Fail); failed and sent twice: the most in any run:',
		'',
		`| Limiter | Ideal | This node, defaults | This node, Max Requests per Second ${KNOWN_LIMIT_SHARE * limiters.rateLimitPerSecond} | HTTP Request node |`,
		'|---|---|---|---|---|',
		...lines,
	].join('\n');
}

function main(): void {
	const results = JSON.parse(readFileSync(RESULTS, 'utf8')) as Results;
	for (const block of BLOCKS) {
		const text = readFileSync(block.file, 'utf8');
		const start = text.indexOf(block.start);
		const end = text.indexOf(block.end);
		const name = path.basename(block.file);
		if (start < 0 || end < start)
			throw new Error(`${name} has no ${block.start} … ${block.end} block`);
		const updated = `${text.slice(0, start + block.start.length)}\n${block.render(results)}\n${text.slice(end)}`;
		writeFileSync(block.file, updated);
		console.log(
			`${name}: benchmark figures written from ${path.relative(process.cwd(), RESULTS)}.`,
		);
	}
}

if (require.main === module) main();
