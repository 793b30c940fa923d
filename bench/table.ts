/**
 * `npm run bench:table`: writes the benchmark table of CONTRIBUTING.md (between the bench-table
 * markers) from bench/results/latest.json, so the figures shown are the figures measured, with
 * their date, n8n version and commit.
 */
import { readFileSync, writeFileSync } from 'fs';
import * as path from 'path';

const RESULTS = path.join(__dirname, 'results/latest.json');
const TARGET = path.join(__dirname, '../CONTRIBUTING.md');
const START = '<!-- bench-table:start (npm run bench:table writes this) -->';
const END = '<!-- bench-table:end -->';

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
	return [
		`| ${results.sends} sends, ${results.latencyMs} ms latency, defaults | ${show(v.nodeDefault.seconds)} s, peak rise ${rise('nodeDefault')} | ${show(v.httpRequest.seconds)} s, peak rise ${rise('httpRequest')} |`,
		`| same, 50 in parallel vs HTTP Request without limits | ${show(v.nodeConcurrency50.seconds)} s | ${show(v.httpRequest.seconds)} s |`,
	];
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
	return sizes.map(
		(size: any) =>
			`| ${size.sends} sends, defaults | ${show(size.seconds)} s (${show(size.perSecond, 0)} sends/s), peak rise ${show(size.rise, 0)} MB (${show(size.risePerThousand, 1)} MB per 1,000 sends) over a Code-node-only baseline of ${show(size.baseline, 0)} MB | |`,
	);
}

export function renderTable(results: Results): string {
	const b = results.benchmarks;
	const rows = [
		...(b.sends ? sendsRows(b.sends.results) : []),
		...(b.limiters ? limiterRows(b.limiters.results) : []),
		...(b.scale ? scaleRows(b.scale.results) : []),
		// The other benchmarks (groups, upload, cold load): their measured goal figures.
		...Object.entries(b)
			.filter(([name]) => !['sends', 'limiters', 'scale'].includes(name))
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

function main(): void {
	const results = JSON.parse(readFileSync(RESULTS, 'utf8')) as Results;
	const text = readFileSync(TARGET, 'utf8');
	const start = text.indexOf(START);
	const end = text.indexOf(END);
	if (start < 0 || end < start) throw new Error(`CONTRIBUTING.md has no ${START} … ${END} block`);
	const updated = `${text.slice(0, start + START.length)}\n${renderTable(results)}\n${text.slice(end)}`;
	writeFileSync(TARGET, updated);
	console.log(
		`CONTRIBUTING.md benchmark table written from ${path.relative(process.cwd(), RESULTS)}.`,
	);
}

if (require.main === module) main();
