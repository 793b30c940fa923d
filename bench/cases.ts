/**
 * Every benchmark case, as data: its name (what `npm run bench -- <name>` takes), what it measures in
 * one line, and the runner module that runs it. Cases of one runner asked for together share its
 * set-up (one n8n user folder for the node cases; servers for the campaign cases). docs/performance.md
 * names the case behind each figure; test/bench/cases.test.ts checks the two agree.
 */
export type Runner =
	| 'node'
	| 'campaign'
	| 'pacing'
	| 'pacingFamily'
	| 'pacingWake'
	| 'executions'
	| 'profile'
	| 'uploadQueue'
	| 'reports';

export interface BenchCase {
	name: string;
	runner: Runner;
	what: string;
	/** Needs this n8n version installed (installed first when missing). */
	n8n?: boolean;
}

const node = (name: string, what: string): BenchCase => ({ name, runner: 'node', what, n8n: true });
const campaign = (name: string, what: string): BenchCase => ({
	name,
	runner: 'campaign',
	what,
	n8n: true,
});

export const CASES: BenchCase[] = [
	node(
		'sends',
		'2,000 template sends: the node at its defaults and tuned, beside the HTTP Request node',
	),
	node('oneSend', 'one send per execution, 500 executions: the time a single send costs'),
	node('oneSendQueue', 'the same one-send executions in queue mode'),
	node('limiters', '2,000 sends to an account limited to 100/s under each limiter model'),
	node('scale', '10,000 sends: time and memory against the number of items'),
	node('groups', 'Group > Get Many over thousands of groups, pages and memory'),
	node('upload', 'a 100 MB upload: memory and time, beside the HTTP Request node'),
	node('coldLoad', "the package's load time in a fresh n8n process"),
	node('sms', '10,000 SMS, 100 per request, beside the HTTP Request node one by one and batched'),
	campaign('campaignTemplate', 'the shipped campaign of 100,000 (Send Template) in queue mode'),
	campaign(
		'campaignThreeWorkers',
		'the same campaign with three workers and no setting changed (the limit sets the pace)',
	),
	campaign('campaignSms', 'the shipped campaign of 100,000 (Send SMS) in queue mode'),
	campaign('oneExecutionTemplate', '100,000 template sends as one execution on one worker'),
	campaign('oneExecutionSms', '100,000 SMS as one execution on one worker'),
	campaign('httpTemplate', "the campaign's batches through the HTTP Request node (template)"),
	campaign('httpSms', "the campaign's batches through the HTTP Request node (SMS, 100 a request)"),
	campaign(
		'killRerun',
		'the campaign with a worker SIGKILLed mid-batch, no replacement, then run again',
	),
	campaign(
		'fiveInARow',
		'five template campaigns in a row on the same workers: peak memory per campaign',
	),
	{
		name: 'pacing',
		runner: 'pacing',
		what: "queue mode's pacing on the virtual clock (no n8n, 8 s)",
	},
	{
		name: 'pacingFamily',
		runner: 'pacingFamily',
		what: "the pacer against limiters beyond the sandbox's, on the virtual clock (10 s)",
	},
	{
		name: 'pacingWake',
		runner: 'pacingWake',
		what: 'paced starts a second on real timers with a side load',
	},
	{
		name: 'executions',
		runner: 'executions',
		what: '10 executions of 200 sends at once in one n8n, one account',
		n8n: true,
	},
	{
		name: 'profile',
		runner: 'profile',
		what: "where a send's CPU goes: V8's profiler in n8n's main process",
		n8n: true,
	},
	{
		name: 'uploadQueue',
		runner: 'uploadQueue',
		what: "a 100 MB upload in queue mode's database binary mode",
		n8n: true,
	},
	{
		name: 'reports',
		runner: 'reports',
		what: '100,000 delivery reports at up to 500/s counted per campaign in queue mode, then a check',
		n8n: true,
	},
];

/** Names that stand for several cases: `npm run bench -- node` is the node cases' full run. */
export const CASE_SETS: Record<string, string[]> = {
	node: CASES.filter((entry) => entry.runner === 'node').map((entry) => entry.name),
	campaign: CASES.filter((entry) => entry.runner === 'campaign').map((entry) => entry.name),
};
