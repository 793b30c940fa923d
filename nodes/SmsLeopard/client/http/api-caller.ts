/**
 * One place where every call goes through: URL, transport, retries, error mapping and response
 * parsing. Resource modules describe a call; this runs it.
 */
import { settle, settleNow } from './settle';
import type { ZodType, ZodTypeDef } from 'zod';
import { limitDepth } from './answer-depth';
import { apiErrorFromResponse } from './api-error';
import {
	SmsLeopardConnectionError,
	SmsLeopardError,
	SmsLeopardRateLimitError,
	SmsLeopardResponseError,
} from './errors';
import { type CallOutcome, Pacer, type PacerTurns, READ_TURN } from './pacing';
import { type RetryOptions, type Sleep, withRetries } from './retry';
import type { HttpMethod, RequestBody, Transport, TransportResponse } from './transport';
import { changesSomething, stampSendState } from './send-state';
import { issuesOf } from './validation';

export type ApiHost = 'chat' | 'contacts';

export interface ApiCall<T> {
	/** In the user's words, for error messages: "Send template", "Delete contact 42". */
	operation: string;
	host: ApiHost;
	method: HttpMethod;
	path: string;
	query?: Record<string, string | number>;
	body?: RequestBody;
	/** Safe to repeat after a 5xx or a lost connection. */
	idempotent: boolean;
	response: ZodType<T, ZodTypeDef, unknown>;
	/**
	 * For answers read once per send: `response`'s result for a usual answer, read without zod, or
	 * undefined to leave the answer to `response` (client/http/plain-answer.ts).
	 */
	readPlainly?: (value: unknown) => T | undefined;
}

export interface ApiCallerOptions {
	transport: Transport;
	chatUrl: string;
	contactsUrl: string;
	sleep: Sleep;
	retry: RetryOptions;
	timeoutMs?: number;
	/** Spacing of requests for accounts with a known limit; none when absent. */
	requestsPerSecond?: number;
	/** How many calls the caller runs at the same time, so the pacer can spread their starts. */
	parallelCalls?: number;
	/** The clock the pacer reads; tests pass a virtual one. */
	now?: () => number;
	/**
	 * A pacer shared with the other executions of the same account (account-pacers.ts); without it
	 * this caller paces on its own.
	 */
	pacer?: PacerTurns;
}

/** The answer as data, bounded in depth: every answer, success or error, enters the client here. */
function parseBody(body: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof body !== 'string') return { ok: true, value: limitDepth(body) };
	if (body.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: limitDepth(JSON.parse(body)) };
	} catch {
		return { ok: false };
	}
}

function outcomeOf(error: unknown): CallOutcome {
	if (error instanceof SmsLeopardRateLimitError) return 'rateLimited';
	if (error instanceof SmsLeopardConnectionError) return 'noAnswer';
	return 'answered';
}

export class ApiCaller {
	private readonly pacer: PacerTurns;

	constructor(private readonly options: ApiCallerOptions) {
		this.pacer =
			options.pacer ??
			new Pacer(options.sleep, {
				requestsPerSecond: options.requestsPerSecond,
				parallelCalls: options.parallelCalls,
				now: options.now,
			});
	}

	url(host: ApiHost, path: string): string {
		const base = host === 'chat' ? this.options.chatUrl : this.options.contactsUrl;
		return base.replace(/\/+$/, '') + path;
	}

	async call<T>(call: ApiCall<T>): Promise<T> {
		// Once an attempt may have acted, the call may have: a retry refused with a 4xx (a 404 for a
		// contact the lost first DELETE removed) does not make it "not sent".
		let mayHaveActed = false;
		const changes = changesSomething(call.method);
		return await withRetries(
			async () => {
				// A read goes ahead of any batch waiting its turn (READ_TURN), so the next batch's
				// listing does not wait for the last send of the batch before it.
				const ticket = await this.pacer.wait(changes ? undefined : READ_TURN);
				const outcome = await settle(async () => await this.attempt(call));
				this.pacer.finished(ticket, outcome.ok ? 'answered' : outcomeOf(outcome.error));
				if (!outcome.ok) {
					if (outcome.error instanceof SmsLeopardError) {
						mayHaveActed ||= outcome.error.mayHaveBeenSent;
						outcome.error.mayHaveBeenSent = mayHaveActed;
					}
					throw outcome.error;
				}
				return outcome.value;
			},
			call.idempotent,
			this.options.retry,
			this.options.sleep,
			(error, delayMs) => {
				if (error instanceof SmsLeopardRateLimitError) this.pacer.pause(delayMs);
			},
		);
	}

	private async attempt<T>(call: ApiCall<T>): Promise<T> {
		const changes = changesSomething(call.method);
		const response = await this.options.transport.request({
			method: call.method,
			url: this.url(call.host, call.path),
			query: call.query,
			body: call.body,
			timeoutMs: this.options.timeoutMs,
		});
		if (response.failure) {
			const { requestSent, code, message, blockedLocally } = response.failure;
			throw stampSendState(
				new SmsLeopardConnectionError(message, { requestSent, causeCode: code, blockedLocally }),
				changes,
				{ kind: 'noAnswer', requestSent },
			);
		}
		const parsed = parseBody(response.body);
		if (response.status < 200 || response.status >= 300) {
			throw stampSendState(
				apiErrorFromResponse(call.operation, {
					...response,
					body: parsed.ok ? parsed.value : response.body,
				}),
				changes,
				{ kind: 'status', status: response.status },
			);
		}
		// Whatever goes wrong while reading a success answer (even a crash on an odd body), the
		// request was accepted: its error must say so, or a rerun would send twice.
		const read = settleNow(() => this.readSuccess(call, response, parsed));
		if (read.ok) return read.value;
		const error =
			read.error instanceof SmsLeopardResponseError
				? read.error
				: new SmsLeopardResponseError(call.operation, response.status, undefined, [
						{ field: '', message: `could not be read (${String(read.error).slice(0, 200)})` },
					]);
		throw stampSendState(error, changes, { kind: 'unreadable' });
	}

	private readSuccess<T>(
		call: ApiCall<T>,
		response: TransportResponse,
		parsed: ReturnType<typeof parseBody>,
	): T {
		if (!parsed.ok) {
			throw new SmsLeopardResponseError(call.operation, response.status, response.body, [
				{ field: '', message: 'is not JSON' },
			]);
		}
		const plain = call.readPlainly?.(parsed.value);
		if (plain !== undefined) return plain;
		const result = call.response.safeParse(parsed.value);
		if (!result.success) {
			throw new SmsLeopardResponseError(
				call.operation,
				response.status,
				parsed.value,
				issuesOf(result.error),
			);
		}
		return result.data;
	}
}
