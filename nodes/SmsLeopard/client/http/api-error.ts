/**
 * Turns an error answer into a typed error. The chat host answers `{error_code, error_message,
 * status_code}`; the contacts host answers `{error, message}` or, for 401,
 * `{success: false, message, recipients: []}` (docs/api.md "Error answers"). Anything else still
 * gets a useful message.
 */
import {
	type ApiErrorDetails,
	SmsLeopardApiError,
	SmsLeopardAuthenticationError,
	SmsLeopardBadRequestError,
	SmsLeopardNotFoundError,
	SmsLeopardPermissionError,
	SmsLeopardRateLimitError,
	SmsLeopardServerError,
} from './errors';
import type { TransportResponse } from './transport';

const MAX_MESSAGE_LENGTH = 500;

function asRecord(value: unknown): Record<string, unknown> | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)
		: undefined;
}

function text(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function defaultCode(status: number): string {
	if (status === 401) return 'unauthorized';
	if (status === 403) return 'forbidden';
	if (status === 404) return 'not_found';
	if (status === 429) return 'rate_limited';
	if (status >= 500) return 'server_error';
	return 'http_' + status;
}

/** Retry-After is seconds or an HTTP date; anything unreadable counts as absent. */
export function parseRetryAfter(header: string | undefined, now = Date.now()): number | undefined {
	if (!header) return undefined;
	const seconds = Number(header);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
	const date = Date.parse(header);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

export function readErrorDetails(operation: string, response: TransportResponse): ApiErrorDetails {
	const record = asRecord(response.body);
	const code = text(record?.error_code) ?? text(record?.error) ?? defaultCode(response.status);
	const rawMessage =
		text(record?.error_message) ??
		text(record?.message) ??
		(typeof response.body === 'string' ? text(response.body) : undefined) ??
		`HTTP ${response.status} without an error message`;
	return {
		status: response.status,
		code,
		apiMessage: rawMessage.slice(0, MAX_MESSAGE_LENGTH),
		body: response.body,
		operation,
		retryAfterMs: parseRetryAfter(response.headers['retry-after']),
	};
}

export function apiErrorFromResponse(
	operation: string,
	response: TransportResponse,
): SmsLeopardApiError {
	const details = readErrorDetails(operation, response);
	const status = response.status;
	if (status === 401) return new SmsLeopardAuthenticationError(details);
	if (status === 403) return new SmsLeopardPermissionError(details);
	if (status === 404) return new SmsLeopardNotFoundError(details);
	if (status === 429) return new SmsLeopardRateLimitError(details);
	if (status >= 500) return new SmsLeopardServerError(details);
	if (status >= 400) return new SmsLeopardBadRequestError(details);
	return new SmsLeopardApiError(details);
}
