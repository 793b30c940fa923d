/**
 * Typed errors of the client. Every message says what went wrong and what to do; none ever holds
 * the API key or secret (transports never pass request headers in here).
 */
import { MAX_LISTED_PROBLEMS, capProblem, listProblems } from './echo';

export type ApiErrorKind =
	'authentication' | 'permission' | 'notFound' | 'rateLimit' | 'server' | 'badRequest' | 'other';

export class SmsLeopardError extends Error {
	/**
	 * True when the service may have acted on the request although it failed: running it again may
	 * send twice. Set by the one rule in send-state.ts; false for anything refused before sending.
	 */
	mayHaveBeenSent = false;

	constructor(message: string) {
		super(message);
		this.name = new.target.name;
	}
}

export interface FieldIssue {
	/** Dotted path of the offending input field, e.g. `variables.buttons[1].index`. */
	field: string;
	message: string;
}

/** The first issues, each capped: a huge input must not make a huge error (see echo.ts). */
function keepFirst(issues: FieldIssue[]): FieldIssue[] {
	return issues.slice(0, MAX_LISTED_PROBLEMS).map((issue) => ({
		field: capProblem(issue.field),
		message: capProblem(issue.message),
	}));
}

function describeIssues(issues: FieldIssue[], total: number): string {
	return listProblems(
		issues.map((issue) => `${issue.field || 'body'}: ${issue.message}`),
		total,
	);
}

/** Input that the client refused before sending anything. */
export class SmsLeopardValidationError extends SmsLeopardError {
	/** The first issues (at most MAX_LISTED_PROBLEMS); `moreIssues` counts the rest. */
	readonly issues: FieldIssue[];
	readonly moreIssues: number;

	constructor(issues: FieldIssue[]) {
		const kept = keepFirst(issues);
		super(
			listProblems(
				kept.map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message)),
				issues.length,
			),
		);
		this.issues = kept;
		this.moreIssues = issues.length - kept.length;
	}

	get field(): string {
		return this.issues[0]?.field ?? '';
	}
}

export interface ApiErrorDetails {
	status: number;
	code: string;
	apiMessage: string;
	body: unknown;
	operation: string;
	retryAfterMs?: number;
}

/** The service answered with an error status. */
export class SmsLeopardApiError extends SmsLeopardError {
	readonly kind: ApiErrorKind = 'other';
	readonly status: number;
	readonly code: string;
	readonly apiMessage: string;
	readonly body: unknown;
	readonly operation: string;

	constructor(details: ApiErrorDetails, hint?: string) {
		super(
			`${details.operation} failed: ${details.apiMessage} (HTTP ${details.status}, ${details.code})` +
				(hint ? `. ${hint}` : ''),
		);
		this.status = details.status;
		this.code = details.code;
		this.apiMessage = details.apiMessage;
		this.body = details.body;
		this.operation = details.operation;
	}
}

export class SmsLeopardAuthenticationError extends SmsLeopardApiError {
	override readonly kind = 'authentication' as const;
	constructor(details: ApiErrorDetails) {
		super(
			details,
			'Check the API key and secret of the SMSLeopard credential, and that it points at the right hosts',
		);
	}
}

export class SmsLeopardPermissionError extends SmsLeopardApiError {
	override readonly kind = 'permission' as const;
	constructor(details: ApiErrorDetails) {
		super(
			details,
			'The API key is valid but may not do this; use a key of the account that owns the record',
		);
	}
}

export class SmsLeopardNotFoundError extends SmsLeopardApiError {
	override readonly kind = 'notFound' as const;
	constructor(details: ApiErrorDetails) {
		super(details);
	}
}

export class SmsLeopardBadRequestError extends SmsLeopardApiError {
	override readonly kind = 'badRequest' as const;
	constructor(details: ApiErrorDetails) {
		super(details);
	}
}

export class SmsLeopardRateLimitError extends SmsLeopardApiError {
	override readonly kind = 'rateLimit' as const;
	/** How long the service asked to wait, when it said so. */
	readonly retryAfterMs?: number;
	constructor(details: ApiErrorDetails) {
		super(details, 'Too many requests: lower the concurrency or set a requests-per-second limit');
		this.retryAfterMs = details.retryAfterMs;
	}
}

export class SmsLeopardServerError extends SmsLeopardApiError {
	override readonly kind = 'server' as const;
	constructor(details: ApiErrorDetails) {
		super(details, 'The service failed; try again later');
	}
}

/**
 * No answer at all. `requestSent` is false only when the request surely never reached the server
 * (connection refused, host not found), so repeating it cannot act twice. `blockedLocally`: refused
 * before it left by a rule on this side (n8n's SSRF protection), so repeating it cannot help either.
 */
export class SmsLeopardConnectionError extends SmsLeopardError {
	readonly requestSent: boolean;
	readonly causeCode: string;
	readonly blockedLocally: boolean;

	constructor(
		message: string,
		options: { requestSent: boolean; causeCode: string; blockedLocally?: boolean },
	) {
		super(message);
		this.requestSent = options.requestSent;
		this.causeCode = options.causeCode;
		this.blockedLocally = options.blockedLocally === true;
	}
}

/** A success status whose body is not what docs/api.md "Send answer" and the like describe. */
export class SmsLeopardResponseError extends SmsLeopardError {
	readonly status: number;
	readonly body: unknown;
	readonly issues: FieldIssue[];

	constructor(operation: string, status: number, body: unknown, issues: FieldIssue[]) {
		const kept = keepFirst(issues);
		super(
			`${operation}: the service answered HTTP ${status} with an unexpected body (` +
				describeIssues(kept, issues.length) +
				'). Check that the credential points at the SMSLeopard API hosts',
		);
		this.status = status;
		this.body = body;
		this.issues = kept;
	}
}

/**
 * A send the service may have made without confirming it for these items: its answer was lost,
 * unreadable or a 5xx, or it does not show the item's own entry. Never repeated; the message names
 * the items so the user can check before resending.
 */
export class SmsLeopardUnconfirmedError extends SmsLeopardConnectionError {
	constructor(message: string, causeCode: string) {
		super(message, { requestSent: true, causeCode });
		this.mayHaveBeenSent = true;
	}
}
