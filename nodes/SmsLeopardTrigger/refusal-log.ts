/**
 * A refused post (401) leaves a trace in n8n's log at warn level, with why it was refused, never
 * the secret or the body. Rate-limited per trigger and reason, in this process's memory: the first
 * refusal of a minute is logged at once, the others of that minute are counted into the next line,
 * so a flood of forged posts cannot flood the log (at most four lines a minute per trigger), and a
 * flood of probes without a secret cannot hide real reports refused for a wrong one. The marketer's
 * view of a refusal is its execution on the Refused Posts output (refusal-report.ts); this line is
 * for whoever reads n8n's log.
 */
import type { Logger } from 'n8n-workflow';
import type { SecretVerdict } from '../SmsLeopard/client';

export type RefusalReason = Exclude<SecretVerdict, 'accepted'> | 'noSecretSet';

const REASONS: Record<RefusalReason, string> = {
	noSecret: 'the post carries no secret',
	wrongSecret: 'the post carries a wrong secret',
	elsewhere:
		'the post carries the secret in another place than the one set under Options > Secret Presented As',
	noSecretSet: 'no secret is set',
};

export const LOG_WINDOW_MS = 60_000;

interface Window {
	startedAt: number;
	unlogged: number;
}

const windows = new Map<string, Window>();

export interface Refusal {
	/** The trigger's key (workflow and node): each trigger has its own rate limit. */
	trigger: string;
	reason: RefusalReason;
	/** Where its secret is set: the credential (version 2) or the node's Secret (version 1). */
	setIn: 'credential' | 'parameter';
	workflowId: string;
	workflowName: string;
	nodeName: string;
}

export function refusalWords(reason: RefusalReason, setIn: Refusal['setIn']): string {
	if (reason !== 'noSecretSet') return REASONS[reason];
	return setIn === 'credential'
		? "no secret is set: the trigger's SMSLeopard API credential has no Webhook Secret"
		: "no secret is set: the trigger's Secret is empty";
}

/**
 * Logs a refusal unless one of this trigger's for the same reason was logged less than a minute
 * ago (then counts it).
 */
export function logRefusal(logger: Logger, refusal: Refusal, now = Date.now()): boolean {
	const key = `${refusal.trigger}|${refusal.reason}`;
	const window = windows.get(key);
	if (window && now - window.startedAt < LOG_WINDOW_MS) {
		window.unlogged++;
		return false;
	}
	const more = window?.unlogged ?? 0;
	windows.set(key, { startedAt: now, unlogged: 0 });
	const since =
		more > 0 ? ` (and ${more} more refused in the minute before, not logged one by one)` : '';
	logger.warn(
		`SMSLeopard Trigger "${refusal.nodeName}" of workflow "${refusal.workflowName}" (id ${refusal.workflowId}) refused a post with 401: ${refusalWords(refusal.reason, refusal.setIn)}${since}`,
		{
			workflowId: refusal.workflowId,
			workflowName: refusal.workflowName,
			nodeName: refusal.nodeName,
			reason: refusal.reason,
		},
	);
	return true;
}

/** Forgets a trigger's windows (on activation and deactivation). */
export function forgetRefusals(trigger: string): void {
	for (const key of windows.keys()) if (key.startsWith(`${trigger}|`)) windows.delete(key);
}
