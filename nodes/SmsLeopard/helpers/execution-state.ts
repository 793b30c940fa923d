/** What one execution of the node shares across its items: the client and per-run memory. */
import type { MediaCategory, SmsLeopardClient } from '../client';
import { OncePerRun } from './once-per-run';

export interface ExecutionState {
	client: SmsLeopardClient;
	/** Listings, sender checks, uploads and file hashes, once per execution (once-per-run.ts). */
	once: OncePerRun;
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

export function newExecutionState(client: SmsLeopardClient, webhookSecret = ''): ExecutionState {
	return {
		client,
		webhookSecret,
		once: new OncePerRun(),
		mediaCategories: new Map(),
		noticesGiven: new Set(),
		bodySecrets: new Set(),
	};
}
