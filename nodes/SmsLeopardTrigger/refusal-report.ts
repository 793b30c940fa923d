/**
 * "Report Refused Posts": a post refused with 401 also starts an execution with one item on the
 * trigger's second output (Refused Posts), where a marketer looks: the executions list, and the
 * editor while it listens for a test event. The item says why and where the secret was looked
 * for, never the body or the secret. A stranger cannot start executions freely: at most one a
 * minute per trigger and reason; the refusals between are counted into the next report.
 *
 * The minute is kept in the workflow's static data (n8n's per-node state, saved with the workflow
 * after the post, so a restart keeps it) and in this process's memory, claimed synchronously, so
 * posts arriving together in one process report once. A restart forgets the count of refusals
 * not reported since the last report; several webhook processes (queue mode) read the static
 * data as saved by the last post, so two arriving in the same instant at two processes can each
 * report once.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';
import {
	type SecretPresentation,
	type WebhookRequest,
	placesLookedIn,
	presentedPlaces,
} from '../SmsLeopard/client';
import { type RefusalReason, refusalWords } from './refusal-log';

export const REPORT_WINDOW_MS = 60_000;

interface Claim {
	reportedAt: number;
	unreported: number;
}

const claims = new Map<string, Claim>();

type ReportedAt = Partial<Record<RefusalReason, number>>;

/**
 * Whether this refusal is reported (the first of its reason in a minute), and how many of that
 * reason were refused unreported before it.
 */
export function claimReport(
	context: IWebhookFunctions,
	trigger: string,
	reason: RefusalReason,
	now = Date.now(),
): { report: boolean; unreported: number } {
	const key = `${trigger}|${reason}`;
	const state = context.getWorkflowStaticData('node');
	const saved = (state.refusalReportedAt ?? {}) as ReportedAt;
	const claim = claims.get(key) ?? { reportedAt: 0, unreported: 0 };
	const last = Math.max(claim.reportedAt, saved[reason] ?? 0);
	if (Math.abs(now - last) < REPORT_WINDOW_MS) {
		claims.set(key, { reportedAt: last, unreported: claim.unreported + 1 });
		return { report: false, unreported: 0 };
	}
	claims.set(key, { reportedAt: now, unreported: 0 });
	state.refusalReportedAt = { ...saved, [reason]: now };
	return { report: true, unreported: claim.unreported };
}

/** Forgets a trigger's claims in memory (on activation and deactivation). */
export function forgetReports(trigger: string): void {
	for (const key of claims.keys()) if (key.startsWith(`${trigger}|`)) claims.delete(key);
}

export interface RefusedPost {
	reason: RefusalReason;
	setIn: 'credential' | 'parameter';
	presentation: SecretPresentation;
	request: WebhookRequest;
	unreported: number;
}

/** The Refused Posts item: the reason and the places, in words; nothing the post carried. */
export function refusedPostItem(refused: RefusedPost): IDataObject {
	const contentType = refused.request.headers['content-type'];
	return {
		refused: true,
		reason: refused.reason,
		message: `Refused with 401: ${refusalWords(refused.reason, refused.setIn)}`,
		secretSetIn:
			refused.setIn === 'credential'
				? "the Webhook Secret of this trigger's SMSLeopard API credential"
				: "this trigger's Secret field",
		secretLookedFor: placesLookedIn(refused.presentation),
		// Names of the places where the post presented something, never what it presented.
		presentedIn: presentedPlaces(refused.request),
		contentType: typeof contentType === 'string' ? contentType.split(';')[0].trim() : null,
		refusedAt: new Date().toISOString(),
		refusedBeforeUnreported: refused.unreported,
		note: `At most one refused post a minute per reason starts an execution; ${refused.unreported} refused for this reason since the last one reported.`,
	};
}
