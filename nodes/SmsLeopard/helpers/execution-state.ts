/** What one execution of the node shares across its items: the client and per-run memory. */
import type { MediaCategory, SmsLeopardClient } from '../client';
import { KEPT_LISTINGS } from './kept-listings';
import { OncePerRun } from './once-per-run';
import { RunListings } from './run-listings';

export interface ExecutionState {
	client: SmsLeopardClient;
	/** Listings, sender checks, uploads and file hashes, once per execution (once-per-run.ts). */
	once: OncePerRun;
	/** Sender and template listings: once per execution, kept across executions (run-listings.ts). */
	listings: RunListings;
	/** Media uploaded in this execution, by media_id, so its type is known when it is sent. */
	mediaCategories: Map<string, MediaCategory>;
	/** Notices already shown in this execution, so many items give one notice, not one each. */
	noticesGiven: Set<string>;
	/**
	 * Secrets the items put in request bodies (Send SMS's Delivery Report Secret, per item since an
	 * expression can set it), redacted from every output and error like the credential.
	 */
	bodySecrets: Set<string>;
	/**
	 * The credential's Webhook Secret ('' when none): Send SMS sends it as the Delivery Report Secret
	 * when the item's own is empty, so the secret is typed once, in the credential.
	 */
	webhookSecret: string;
}

/** Without `listings`, nothing is kept across executions (the editor's look-ups list afresh). */
export function newExecutionState(
	client: SmsLeopardClient,
	listings: RunListings = new RunListings(KEPT_LISTINGS, '', 0),
	webhookSecret = '',
): ExecutionState {
	return {
		client,
		webhookSecret,
		once: new OncePerRun(),
		listings,
		mediaCategories: new Map(),
		noticesGiven: new Set(),
		bodySecrets: new Set(),
	};
}
