/**
 * "Gather Posts": posts to one trigger arriving within a short window start one execution
 * together, one item per event, instead of one execution each. SMSLeopard posts one report per
 * message and status; at a campaign's pace that is hundreds of executions a second, each a row in
 * n8n's database, which n8n cannot start that fast (on SQLite it stops answering its editor).
 *
 * The first post of a window leads: it waits the window, then returns every gathered event as its
 * workflow data, and n8n answers it: n8n 2 once the execution is created (queued, in queue mode),
 * n8n 1 as soon as the node returned (webhook-helpers, responseMode onReceived). The others follow:
 * n8n leaves their answer to the node, and each gets the leader's answer when the leader gets it,
 * so a gathered post is answered as surely as a post of its own would be. If the leader's start
 * failed, or its answer never went out, they get 503 and SMSLeopard posts them again (a repeat is
 * dropped or counted once downstream). Kept in this process's memory: each n8n process (main,
 * webhook process) gathers its own posts.
 */
import { type INodeExecutionData, sleep } from 'n8n-workflow';

/** More events than this start the gathered execution at once, without waiting the window out. */
export const MOST_GATHERED_EVENTS = 500;

/** Answers a follower with the leader's status: 200, or 503 when the execution did not start. */
export type AnswerFollower = (status: 200 | 503) => void;

interface Gathering {
	items: INodeExecutionData[];
	followers: AnswerFollower[];
	/** Ends the window early (full). */
	close(): void;
}

const open = new Map<string, Gathering>();

export type Gathered =
	| { role: 'leader'; items: INodeExecutionData[]; followers: AnswerFollower[] }
	| { role: 'follower' };

/**
 * Joins the trigger's open window, or opens one and leads it. A leader's promise settles when its
 * window ends, with everyone's events in arrival order; a follower's at once.
 */
export async function gather(
	trigger: string,
	items: INodeExecutionData[],
	windowMs: number,
	answer: AnswerFollower,
): Promise<Gathered> {
	const current = open.get(trigger);
	if (current && current.items.length + items.length <= MOST_GATHERED_EVENTS) {
		current.items.push(...items);
		current.followers.push(answer);
		if (current.items.length >= MOST_GATHERED_EVENTS) current.close();
		return { role: 'follower' };
	}
	const gathering: Gathering = { items: [...items], followers: [], close: () => {} };
	open.set(trigger, gathering);
	// The window's end, or sooner when it is full (n8n's sleep: a community node has no timers of
	// its own; the sleep left running after a full window ends on its own).
	const full = new Promise<void>((resolve) => {
		gathering.close = resolve;
	});
	await Promise.race([sleep(windowMs), full]);
	// Closed before anyone else joins: a post after this opens the next window.
	if (open.get(trigger) === gathering) open.delete(trigger);
	return { role: 'leader', items: gathering.items, followers: gathering.followers };
}

/** What a leader's HTTP answer looks like to this module: Node's ServerResponse. */
export interface LeaderResponse {
	statusCode: number;
	writableFinished: boolean;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

/**
 * Tells each listener the leader's outcome once its answer is sent: 200 if n8n answered it 2xx (the
 * execution started), else 503; 503 too if the connection closed before an answer went out.
 */
export function onLeaderAnswered(leader: LeaderResponse, listeners: AnswerFollower[]): void {
	let told = false;
	const tell = (status: 200 | 503) => {
		if (told) return;
		told = true;
		for (const listener of listeners) listener(status);
	};
	leader.once('finish', () => tell(leader.statusCode < 300 ? 200 : 503));
	leader.once('close', () => {
		if (!leader.writableFinished) tell(503);
	});
}

/** Forgets an open window (deactivation): its leader still ends it and starts its execution. */
export function forgetGathering(trigger: string): void {
	open.delete(trigger);
}
