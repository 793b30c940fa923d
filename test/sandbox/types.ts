// Shapes shared by every part of the sandbox. The record shapes mirror docs/api.md,
// field names included, so that what the
// sandbox answers is byte-for-byte what a client has to parse against the real service.
import type { ReportSecretIn, ReportShape } from './callbacks';
import type { LimiterModel, RetryAfterStyle } from './limiters';

export interface SandboxOptions {
	chatPort?: number;
	contactsPort?: number;
	channel?: string;
	latencyMs?: number;
	/** Requests per second per host beyond which 429 (none when absent); see rateLimitModel. */
	rateLimitPerSecond?: number;
	/** How the limit is counted (limiters.ts): sliding (default), fixed, tokenBucket or perMinute. */
	rateLimitModel?: LimiterModel;
	/** Token bucket size (default 20): how many requests may come at once. */
	rateLimitBurst?: number;
	/**
	 * The Retry-After of rate-limit refusals: seconds (default), none, zero, negative or pastDate.
	 */
	rateLimitRetryAfter?: RetryAfterStyle;
	/** A limit that changes mid-run: `afterMs` after a host's first request, `perSecond` applies. */
	rateLimitChange?: { afterMs: number; perSecond: number } | null;
	/** The perMinute model's quota window (default 60,000 ms); the quota scales with it. */
	rateLimitQuotaWindowMs?: number;
	failureRate?: number;
	seed?: number;
	groupCount?: number;
	defaultPerPage?: number;
	maxPerPage?: number;
	ignorePageParam?: boolean;
	/**
	 * A hostile group listing whose `next_page` never ends (always page + 1): past the last real
	 * page, `repeat` answers groups already served, in an order that changes every page (no new ids);
	 * `fresh` answers made-up groups with new ids every page. `count` and `num_pages` stay honest.
	 */
	runawayPagination?: RunawayPagination;
	contactCreateMode?: 'upsert' | 'duplicate';
	/** Fraction 0..1 of authorised requests whose socket is destroyed without an answer. */
	resetRate?: number;
	/**
	 * When a reset happens: `beforeHandling` (nothing acted on, nothing recorded as sent),
	 * `afterHandling` (the request is acted on, e.g. the message recorded as sent, then the socket is
	 * destroyed: the client cannot know it went through), or `mixed` (each reset picks one, 50/50).
	 */
	resetMode?: ResetMode;
	/** Fraction 0..1 of authorised requests acted on at once but answered only after `slowMs`. */
	slowRate?: number;
	slowMs?: number;
	/** Fraction 0..1 of authorised requests acted on, then answered with a truncated JSON body. */
	malformedJsonRate?: number;
	/** Fraction 0..1 of authorised requests answered 200 text/html (a proxy page), not acted on. */
	wrongContentTypeRate?: number;
	/**
	 * The next N requests (any, before routing and auth) get 429 with Retry-After: 1. Counts down.
	 */
	burst429?: number;
	/**
	 * The Retry-After header of the burst429 answers: '1' by default; hostile gateways send '0', '-1'
	 * or a date in the past; null sends none.
	 */
	burst429RetryAfter?: string | null;
	/** The next N template listings (GET /v1/phone_number_ids/{id}/templates) answer 503. */
	templateListingFailures?: number;
	/** An account without the template listing (docs/api.md "Template listing"): it answers 404. */
	noTemplateListing?: boolean;
	/** An account without the sender listing (GET /v1/phone_number_ids, not in the spec): 404. */
	noSenderListing?: boolean;
	/** After this many ms an SMS is delivered (or not); half-way it is `sent`. Default 2000. */
	smsDeliveryMs?: number;
	/**
	 * A careless gateway: every error answer (status 400 and up) echoes the request's headers, and
	 * the key and secret decoded from its Basic Authorization, in its message and a `request_headers`
	 * field.
	 */
	echoRequestHeaders?: boolean;
	/**
	 * A careless gateway: every error answer to a request whose body was read echoes that body
	 * (with any `status_secret` in it) in its message and a `request_body` field.
	 */
	echoRequestBody?: boolean;
	/**
	 * How a send answer (SMS and chat) lists what was sent, as gateways do at times: 'complete'
	 * (default), 'dropLast' (the last recipient is sent but left out of the answer) or 'noNumbers'
	 * (entries without their number).
	 */
	sendAnswers?: SendAnswers;
	/**
	 * How delivery reports are posted to an SMS send's status_url (docs/api.md "Callbacks"): 'flat'
	 * (one JSON report per post, default), 'wrapped' (one post per request, `{ event, data: [...] }`
	 * with other field names) or 'form' (form-encoded, one per post).
	 */
	reportShape?: ReportShape;
	/** Where a report carries status_secret: 'body' (default), 'header' or 'query'. */
	reportSecretIn?: ReportSecretIn;
	/** Where WhatsApp events are posted (the account's webhook setting); none when unset. */
	whatsappWebhookUrl?: string;
	/** Signs WhatsApp event posts (X-Hub-Signature-256). */
	whatsappWebhookSecret?: string;
}

export type SendAnswers = 'complete' | 'dropLast' | 'noNumbers';

export type RunawayPagination = 'off' | 'repeat' | 'fresh';

export type ResetMode = 'beforeHandling' | 'afterHandling' | 'mixed';

/** The injected fault a request met, recorded on its RecordedRequest. */
export type FaultName =
	| 'burst429'
	| 'resetBeforeHandling'
	| 'resetAfterHandling'
	| 'slow'
	| 'malformedJson'
	| 'wrongContentType'
	| 'failure';

/** Options with every default filled in; the one object all handlers read at request time. */
export interface ResolvedOptions {
	chatPort: number;
	contactsPort: number;
	channel: string;
	latencyMs: number;
	rateLimitPerSecond: number | undefined;
	rateLimitModel: LimiterModel;
	rateLimitBurst: number;
	rateLimitRetryAfter: RetryAfterStyle;
	rateLimitChange: { afterMs: number; perSecond: number } | null;
	rateLimitQuotaWindowMs: number;
	failureRate: number;
	seed: number;
	groupCount: number;
	defaultPerPage: number;
	maxPerPage: number;
	ignorePageParam: boolean;
	runawayPagination: RunawayPagination;
	contactCreateMode: 'upsert' | 'duplicate';
	resetRate: number;
	resetMode: ResetMode;
	slowRate: number;
	slowMs: number;
	malformedJsonRate: number;
	wrongContentTypeRate: number;
	burst429: number;
	burst429RetryAfter: string | null;
	templateListingFailures: number;
	noTemplateListing: boolean;
	noSenderListing: boolean;
	smsDeliveryMs: number;
	echoRequestHeaders: boolean;
	echoRequestBody: boolean;
	sendAnswers: SendAnswers;
	reportShape: ReportShape;
	reportSecretIn: ReportSecretIn;
	whatsappWebhookUrl?: string;
	whatsappWebhookSecret?: string;
}

export type HostName = 'chat' | 'contacts';

export interface RecordedFile {
	fieldName: string;
	fileName: string;
	mimeType: string;
	size: number;
}

export interface RecordedRequest {
	host: HostName;
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	authorized: boolean;
	body?: unknown;
	/**
	 * The status answered; 0 while in flight, and stays 0 if the client went away unanswered or the
	 * socket was reset by a fault knob.
	 */
	status: number;
	receivedAt: number;
	/** Set when an injected fault (a knob of SandboxOptions) shaped this request's fate. */
	fault?: FaultName;
}

/** Optional observers, used by the CLI to log one line per request. */
export interface SandboxHooks {
	onResponse?: (entry: RecordedRequest, durationMs: number) => void;
	/** A fault knob hit this request: called as it is decided, before any answer (a slow one too). */
	onFault?: (entry: RecordedRequest) => void;
}

export interface Sender {
	id: number;
	business_account_id: number;
	phone_number: string;
	phone_number_id: string;
	whatsapp_account_id: string;
	messaging_limit: number;
}

export type HeaderFormat = 'TEXT' | 'DOCUMENT' | 'IMAGE' | 'VIDEO';

export interface TemplateHeader {
	format: HeaderFormat;
	text?: string;
}

export type ButtonType = 'URL' | 'QUICK_REPLY' | 'PHONE_NUMBER' | 'FLOW';

export interface TemplateButton {
	type: ButtonType;
	text: string;
	url: string;
	phone_number: string;
}

export type TemplateStatus = 'APPROVED' | 'PENDING' | 'REJECTED';
export type TemplateCategory = 'AUTHENTICATION' | 'MARKETING' | 'UTILITY';

export interface Template {
	id: string;
	account_id: number;
	name: string;
	language: string;
	status: TemplateStatus;
	type: TemplateCategory;
	header: TemplateHeader | null;
	message: string;
	footer: string;
	button: TemplateButton[];
}

export type MediaType = 'document' | 'image' | 'video';

export interface MediaRecord {
	id: number;
	phone_number_id: string;
	media_id: string;
	media_type: MediaType;
	mime_type: string;
	file_name: string;
	file_size: number;
}

export interface MetadataField {
	name: string;
	value: string;
}

/** A stored contact. account_id, group_ids and custom_metadata are internal: never answered. */
export interface ContactRecord {
	id: number;
	account_id: number;
	name: string;
	phone_number: string;
	email: string;
	group_ids: number[];
	custom_metadata: MetadataField[];
	created_at: string;
	updated_at: string;
}

export interface Group {
	id: number;
	account_id: number;
	creator_id: number;
	name: string;
	description: string;
	is_private: boolean;
	total_contacts: number;
	created_at: string;
	updated_at: string;
}

export interface SentMessage {
	id: string;
	destination: string;
	templateId: string;
	phoneNumberId: string;
	componentList: unknown;
	mediaId?: string;
	fileName?: string;
	at: number;
}

/** One SMS recipient of an accepted send. */
export interface SmsRecord {
	id: string;
	/** International form with a plus. */
	number: string;
	source: string;
	message: string;
	parts: number;
	cost: number;
	statusUrl?: string;
	statusSecret?: string;
	at: number;
}

export interface SandboxState {
	senders: Sender[];
	/** Templates keyed by the sender's record id. */
	templates: Record<number, Template[]>;
	media: MediaRecord[];
	contacts: ContactRecord[];
	groups: Group[];
	sentMessages: SentMessage[];
	/** International destination -> number of accepted sends, so tests can spot double sends. */
	sendCountByDestination: Record<string, number>;
	/** Every SMS recipient accepted, in order. */
	smsMessages: SmsRecord[];
	smsBalance: number;
}

/** A rule violation, answered in the host family's error shape. */
export interface Problem {
	status: number;
	code: string;
	message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };
