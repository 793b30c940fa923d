/**
 * The promise to the user, checked on one run of the node against what the gateway recorded:
 *
 * - one-outcome: every input item is exactly one of sent (a success item with its message or
 *   record id), maybe sent (`mayHaveBeenSent: true`) or not sent (`mayHaveBeenSent: false`);
 *   under Stop, it is in exactly one line of the error's Sent / Maybe sent / Not sent summary;
 * - not-sent-only-when-provably: an item the gateway received (and did not refuse with a 4xx)
 *   is never "not sent, safe to run again";
 * - maybe-only-when-it-may-have-left: an item no request ever carried to the gateway (refused
 *   port, failed TLS, a listing that failed before the send, never started) is "not sent";
 * - own-id: a sent item shows an id the gateway answered for that very item, never another's;
 * - bounded: the run ended within its bound (Timeout x attempts + waits + margin);
 * - no-secret: no API key, API secret, their Basic token or the Delivery Report Secret in any
 *   output item, error, description or log line of the run.
 *
 * Each check answers a list of violations in words; an empty list means the run kept the promise.
 */
import type { RunNodeResult } from '../harness';
import { SECRETS } from '../secret-scan/scan';
import type { Exchange } from './gateway';

export type InvariantName =
	| 'one-outcome'
	| 'not-sent-only-when-provably'
	| 'maybe-only-when-it-may-have-left'
	| 'own-id'
	| 'bounded'
	| 'no-secret';

export const INVARIANTS: InvariantName[] = [
	'one-outcome',
	'not-sent-only-when-provably',
	'maybe-only-when-it-may-have-left',
	'own-id',
	'bounded',
	'no-secret',
];

export interface Violation {
	invariant: InvariantName;
	detail: string;
}

export type Outcome = 'sent' | 'maybe' | 'not';

/** What the node said about one item, wherever it said it. */
export interface ItemReport {
	outcomes: Outcome[];
	/** Ids shown for the item as sent (output item or the summary's Sent line). */
	ids: unknown[];
	/** Where it was said, for messages. */
	where: string[];
}

export interface RunRecord {
	result?: RunNodeResult;
	mode: 'continue' | 'stop';
	itemCount: number;
	/** The id a success item of this operation carries (message id, media id, contact id). */
	successId: (json: Record<string, unknown>) => unknown;
	exchanges: Exchange[];
	elapsedMs: number;
	boundMs: number;
	/** The engine itself threw (not the node's error): its message. */
	crashed?: string;
	/** The guard gave up waiting: the run had not ended. */
	timedOut: boolean;
	/** Log lines n8n and the node wrote during the run (as recorded for the secret scan). */
	logLines: string[];
	/** Secrets beyond the credential's: the Delivery Report Secret. */
	extraSecrets: string[];
}

const usableId = (id: unknown): boolean =>
	(typeof id === 'string' && id.trim() !== '' && id !== 'null' && id !== 'undefined') ||
	(typeof id === 'number' && Number.isFinite(id));

/** Indexes named by itemLabel / itemsLabel: "item 2" is index 1, "items 3-5, 7" are 2-4 and 6. */
export function indexesIn(text: string): number[] {
	const found: number[] = [];
	for (const match of text.matchAll(/\bitems? (\d+(?:-\d+)?(?:, \d+(?:-\d+)?)*)/gi)) {
		for (const part of match[1].split(',')) {
			const [from, to] = part.trim().split('-').map(Number);
			if (Number.isNaN(from)) continue;
			for (let item = from; item <= (to ?? from); item++) found.push(item - 1);
		}
	}
	return found;
}

/** The three lines of the run summary, as written by actions/run-summary.ts. */
export function summaryOf(
	description: string,
): { sent: string; maybe: string; not: string } | undefined {
	const sent = /^Sent: (.*)$/m.exec(description)?.[1];
	const maybe = /^Maybe sent[^:]*: (.*)$/m.exec(description)?.[1];
	const not =
		/^Not sent[^:]*\): (.*)$/m.exec(description)?.[1] ?? /^Not sent: (.*)$/m.exec(description)?.[1];
	if (sent === undefined || maybe === undefined || not === undefined) return undefined;
	return { sent, maybe, not };
}

function blank(itemCount: number): ItemReport[] {
	return Array.from({ length: itemCount }, () => ({ outcomes: [], ids: [], where: [] }));
}

function fromOutputItems(run: RunRecord, reports: ItemReport[]): void {
	const items = run.result?.outputs.flat() ?? [];
	for (const [position, item] of items.entries()) {
		const paired = item.pairedItem;
		const index =
			typeof paired === 'number' ? paired : Array.isArray(paired) ? paired[0]?.item : paired?.item;
		const where = `output item ${position}`;
		if (index === undefined || !reports[index]) continue;
		const json = item.json as Record<string, unknown>;
		const nested =
			json.error && typeof json.error === 'object' ? (json.error as Record<string, unknown>) : {};
		const flag = json.mayHaveBeenSent ?? nested.mayHaveBeenSent;
		const report = reports[index];
		report.where.push(where);
		if (json.error === undefined) {
			const id = run.successId(json);
			if (usableId(id)) {
				report.outcomes.push('sent');
				report.ids.push(id);
			}
			if (flag === true) report.outcomes.push('maybe');
			continue;
		}
		if (flag === true) report.outcomes.push('maybe');
		if (flag === false) report.outcomes.push('not');
	}
}

function fromSummary(run: RunRecord, reports: ItemReport[]): string | undefined {
	const description = String(run.result?.error?.description ?? '');
	const summary = summaryOf(description);
	if (!summary) return 'the run stopped without the Sent / Maybe sent / Not sent summary';
	if (summary.sent !== 'none.') {
		for (const entry of summary.sent.replace(/\.$/, '').split('; ')) {
			const [index] = indexesIn(entry);
			if (index === undefined || !reports[index]) continue;
			reports[index].outcomes.push('sent');
			reports[index].where.push('summary Sent line');
			const ids = /\): (.*)$/.exec(entry)?.[1];
			if (ids) reports[index].ids.push(...ids.split(', '));
		}
	}
	for (const [line, outcome] of [
		[summary.maybe, 'maybe'],
		[summary.not, 'not'],
	] as const) {
		for (const index of indexesIn(line)) {
			if (!reports[index]) continue;
			reports[index].outcomes.push(outcome);
			reports[index].where.push(`summary ${outcome} line`);
		}
	}
	return undefined;
}

/** How the node accounted for each item in this run. */
export function reportsOf(run: RunRecord): { reports: ItemReport[]; problem?: string } {
	const reports = blank(run.itemCount);
	if (!run.result)
		return {
			reports,
			problem: run.crashed ? `the run crashed: ${run.crashed}` : 'the run did not end',
		};
	if (run.mode === 'continue' || !run.result.error) {
		fromOutputItems(run, reports);
		const problem = run.result.error
			? `the run failed as a whole: ${String(run.result.error.message).slice(0, 200)}`
			: undefined;
		return { reports, problem };
	}
	return { reports, problem: fromSummary(run, reports) };
}

export function checkOneOutcome(run: RunRecord): Violation[] {
	const { reports, problem } = reportsOf(run);
	const violations: Violation[] = [];
	if (problem) violations.push({ invariant: 'one-outcome', detail: problem });
	reports.forEach((report, index) => {
		if (report.outcomes.length === 1) return;
		violations.push({
			invariant: 'one-outcome',
			detail:
				report.outcomes.length === 0
					? `item ${index} is neither sent, maybe sent nor not sent (${report.where.join(', ') || 'not in the output'})`
					: `item ${index} is ${report.outcomes.join(' and ')} at once (${report.where.join(', ')})`,
		});
	});
	return violations;
}

/** Exchanges that may have carried `item`: received with it, or cut off before its items were known. */
function carrying(exchanges: Exchange[], item: number): Exchange[] {
	return exchanges.filter((exchange) => exchange.items.includes(item));
}

export function checkNotSentOnlyWhenProvably(run: RunRecord): Violation[] {
	const { reports } = reportsOf(run);
	return reports.flatMap((report, index) => {
		if (!report.outcomes.includes('not')) return [];
		const acted = carrying(run.exchanges, index).filter((exchange) => exchange.mayHaveActed);
		if (acted.length === 0) return [];
		const answer = acted[0].answer;
		return [
			{
				invariant: 'not-sent-only-when-provably' as const,
				detail: `item ${index} is "not sent, safe to run again", but the gateway received it (${acted[0].method} ${acted[0].path}, answered ${answer?.fault === 'none' ? `HTTP ${answer.status}` : answer?.fault}) and may have acted`,
			},
		];
	});
}

export function checkMaybeOnlyWhenItMayHaveLeft(run: RunRecord): Violation[] {
	const { reports } = reportsOf(run);
	const cutOff = run.exchanges.some((exchange) => !exchange.received);
	return reports.flatMap((report, index) => {
		if (!report.outcomes.includes('maybe') || cutOff) return [];
		if (carrying(run.exchanges, index).length > 0) return [];
		return [
			{
				invariant: 'maybe-only-when-it-may-have-left' as const,
				detail: `item ${index} is "maybe sent", but no request carrying it ever reached the gateway`,
			},
		];
	});
}

export function checkOwnId(run: RunRecord): Violation[] {
	const { reports } = reportsOf(run);
	return reports.flatMap((report, index) => {
		const own = new Set<string>();
		const others = new Map<string, number>();
		for (const exchange of run.exchanges) {
			exchange.idsByPosition.forEach((ids, position) => {
				for (const id of ids) {
					if (!usableId(id)) continue;
					if (exchange.items[position] === index) own.add(String(id));
					else others.set(String(id), exchange.items[position] ?? -1);
				}
			});
		}
		return report.ids.flatMap((id) => {
			if (own.has(String(id))) return [];
			const other = others.get(String(id));
			return [
				{
					invariant: 'own-id' as const,
					detail:
						other === undefined
							? `item ${index} shows id ${JSON.stringify(id)}, which the gateway never answered for it`
							: other < 0
								? `item ${index} shows id ${JSON.stringify(id)}, which the gateway answered for a number nobody asked for`
								: `item ${index} shows id ${JSON.stringify(id)}, which the gateway answered for item ${other}`,
				},
			];
		});
	});
}

export function checkBounded(run: RunRecord): Violation[] {
	if (!run.timedOut && run.elapsedMs <= run.boundMs) return [];
	return [
		{
			invariant: 'bounded',
			detail: run.timedOut
				? `the run had not ended after ${Math.round(run.elapsedMs)} ms (bound ${run.boundMs} ms)`
				: `the run took ${Math.round(run.elapsedMs)} ms, over its bound of ${run.boundMs} ms`,
		},
	];
}

/**
 * n8n attaches the workflow's own node (with its parameters, as the user saved them) to every error
 * and log line about it; a parameter the user typed is in the workflow anyway, so that copy is left
 * out. Everything the node itself says (messages, descriptions, output items) is scanned.
 */
function withoutWorkflowNode(key: string, value: unknown): unknown {
	if (
		key === 'node' &&
		value !== null &&
		typeof value === 'object' &&
		'parameters' in value &&
		'type' in value
	)
		return '[the workflow node]';
	return value;
}

function asText(value: unknown): string {
	try {
		return JSON.stringify(value, withoutWorkflowNode) ?? '';
	} catch {
		return String(value);
	}
}

/** A recorded line ({kind, text}, text itself JSON) without the workflow node inside it. */
function recordedLineText(line: string): string {
	try {
		const { kind, text } = JSON.parse(line) as { kind: string; text: string };
		return `${kind} ${asText(JSON.parse(text))}`;
	} catch {
		return line;
	}
}

/** Everything the run showed or logged, as text. */
function everythingShown(run: RunRecord): string {
	const error = run.result?.error as unknown as Record<string, unknown> | undefined;
	return [
		asText(run.result?.outputs),
		asText(
			error && {
				...error,
				message: error.message,
				description: error.description,
				stack: error.stack,
			},
		),
		...run.logLines.map(recordedLineText),
	].join('\n');
}

export function checkNoSecret(run: RunRecord): Violation[] {
	const text = everythingShown(run);
	return [...SECRETS, ...run.extraSecrets]
		.filter((secret) => secret !== '' && text.includes(secret))
		.map((secret) => ({
			invariant: 'no-secret' as const,
			detail: `a secret ("${secret.slice(0, 4)}…") shows in the run's output, error or logs`,
		}));
}

export const CHECKS: Record<InvariantName, (run: RunRecord) => Violation[]> = {
	'one-outcome': checkOneOutcome,
	'not-sent-only-when-provably': checkNotSentOnlyWhenProvably,
	'maybe-only-when-it-may-have-left': checkMaybeOnlyWhenItMayHaveLeft,
	'own-id': checkOwnId,
	bounded: checkBounded,
	'no-secret': checkNoSecret,
};

/** Every check (or the named ones) on one run. */
export function checkRun(run: RunRecord, names: InvariantName[] = INVARIANTS): Violation[] {
	return names.flatMap((name) => CHECKS[name](run));
}
