// One node:http server per host family, with the pipeline every request goes through:
// record -> burst429 -> rate limit -> route (404/405) -> auth (401) -> injected faults decided before
// the handler (reset before handling, 500, text/html page) -> handler -> its answer, possibly
// spoiled by a fault decided with the others (reset after handling, truncated JSON, slow).
// Routing before auth is a choice (the spec does not say): like a reverse proxy in front of the
// application, an unknown path is answered 404 whatever the credentials, which makes a wrong base
// URL easy to tell from wrong credentials.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authFailureMessage, checkBasicAuth } from './auth';
import type { SandboxContext } from './context';
import { errorBody, unauthorizedBody } from './errors';
import type { AnswerFault } from './faults';
import {
	flattenHeaders,
	isPlainObject,
	sleep,
	truncatedJson,
	writeJson,
	writeRaw,
} from './http-util';
import type { HostName, Problem, RecordedRequest } from './types';

export interface Exchange {
	host: HostName;
	req: IncomingMessage;
	res: ServerResponse;
	record: RecordedRequest;
	/** Capture groups of the matched route pattern. */
	params: string[];
	/** How the handler's answer is to be spoiled, if a fault knob hit this request. */
	answerFault?: AnswerFault;
	reply(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
	fail(problem: Problem, headers?: Record<string, string>): Promise<void>;
	/** Answers a body as given (not JSON): for the fault knobs. */
	replyRaw(status: number, contentType: string, data: Buffer): Promise<void>;
	/** Destroys the socket without answering (status stays 0). */
	reset(): void;
}

export type Handler = (ex: Exchange, ctx: SandboxContext) => Promise<void>;

export interface Route {
	pattern: RegExp;
	methods: Partial<Record<string, Handler>>;
}

export interface HostDefinition {
	host: HostName;
	routes: Route[];
	/** Explains a 404 (e.g. "this is the chat host; contacts live on the other one"). */
	notFoundMessage(path: string): string;
}

/** What a proxy or captive portal answers in place of the API: a login page, status 200. */
const PROXY_PAGE = Buffer.from(
	'<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Sign in to continue</h1>' +
		'<form method="post" action="/login"><input name="user"><input name="password" type="password">' +
		'</form></body></html>\n',
);

/** The `echoRequestHeaders` knob: the request's headers, and the Basic credentials decoded, echoed. */
function withEchoedHeaders(body: unknown, req: IncomingMessage): unknown {
	const headers = flattenHeaders(req);
	const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '');
	const decoded = basic ? Buffer.from(basic[1], 'base64').toString('utf8') : '';
	const echo = ` (request headers: ${JSON.stringify(headers)}; credentials: ${decoded})`;
	if (!isPlainObject(body)) return body;
	const copy: Record<string, unknown> = { ...body, request_headers: headers };
	for (const field of ['error_message', 'message']) {
		if (typeof copy[field] === 'string') copy[field] = `${copy[field] as string}${echo}`;
	}
	return copy;
}

/** The `echoRequestBody` knob: the request's body, as read by the route, echoed. */
function withEchoedBody(body: unknown, requestBody: unknown): unknown {
	if (!isPlainObject(body) || requestBody === undefined) return body;
	const echo = ` (request: ${JSON.stringify(requestBody)})`;
	const copy: Record<string, unknown> = { ...body, request_body: requestBody };
	for (const field of ['error_message', 'message']) {
		if (typeof copy[field] === 'string') copy[field] = `${copy[field] as string}${echo}`;
	}
	return copy;
}

function makeExchange(
	ctx: SandboxContext,
	host: HostName,
	req: IncomingMessage,
	res: ServerResponse,
	record: RecordedRequest,
): Exchange {
	let answered = false;
	const done = () => ctx.hooks.onResponse?.(record, Date.now() - record.receivedAt);
	const ex: Exchange = {
		host,
		req,
		res,
		record,
		params: [],
		async reply(status, body, headers) {
			if (answered) return;
			answered = true;
			if (ex.answerFault === 'resetAfterHandling') {
				// The handler has acted; the client never hears of it.
				res.destroy();
				return done();
			}
			record.status = status;
			if (status >= 400 && ctx.options.echoRequestHeaders) body = withEchoedHeaders(body, req);
			if (status >= 400 && ctx.options.echoRequestBody) body = withEchoedBody(body, record.body);
			if (ctx.options.latencyMs > 0) await sleep(ctx.options.latencyMs);
			if (ex.answerFault === 'slow') await sleep(ctx.options.slowMs);
			if (ex.answerFault === 'malformedJson') {
				writeRaw(res, status, 'application/json; charset=utf-8', truncatedJson(body), headers);
			} else {
				writeJson(res, status, body, headers);
			}
			done();
		},
		async replyRaw(status, contentType, data) {
			if (answered) return;
			answered = true;
			record.status = status;
			if (ctx.options.latencyMs > 0) await sleep(ctx.options.latencyMs);
			writeRaw(res, status, contentType, data);
			done();
		},
		fail: (problem, headers) =>
			ex.reply(
				problem.status,
				errorBody(host, problem.status, problem.code, problem.message),
				headers,
			),
		reset() {
			if (answered) return;
			answered = true;
			res.destroy();
			done();
		},
	};
	return ex;
}

async function dispatch(ctx: SandboxContext, def: HostDefinition, ex: Exchange): Promise<void> {
	const { record, req } = ex;
	if (ctx.faults.takeBurst()) {
		record.fault = 'burst429';
		ctx.hooks.onFault?.(record);
		const retryAfter = ctx.options.burst429RetryAfter;
		const message = `Too many requests (a burst of 429 injected by the sandbox burst429 option); Retry-After: ${retryAfter ?? 'none'}`;
		return ex.fail(
			{ status: 429, code: 'rate_limited', message },
			retryAfter === null ? {} : { 'Retry-After': retryAfter },
		);
	}
	const refusal = ctx.faults.admit(def.host, record.receivedAt);
	if (refusal !== null) {
		const { rateLimitPerSecond, rateLimitModel } = ctx.options;
		const message = `Rate limit of ${rateLimitPerSecond} requests per second (${rateLimitModel}) exceeded; Retry-After: ${refusal.retryAfter ?? 'none'}`;
		return ex.fail(
			{ status: 429, code: 'rate_limited', message },
			refusal.retryAfter === null ? {} : { 'Retry-After': refusal.retryAfter },
		);
	}
	const match = def.routes
		.map((route) => ({ route, m: route.pattern.exec(record.path) }))
		.find((x) => x.m !== null);
	if (!match || !match.m) {
		return ex.fail({ status: 404, code: 'not_found', message: def.notFoundMessage(record.path) });
	}
	const handler = match.route.methods[record.method];
	if (!handler) {
		const allowed = Object.keys(match.route.methods).join(', ');
		const message = `Method ${record.method} is not allowed on ${record.path}; use ${allowed}`;
		return ex.fail({ status: 405, code: 'method_not_allowed', message }, { Allow: allowed });
	}
	const auth = checkBasicAuth(
		req.headers.authorization,
		ctx.credentials.apiKey,
		ctx.credentials.apiSecret,
	);
	if (auth !== 'ok') return ex.reply(401, unauthorizedBody(def.host, authFailureMessage(auth)));
	const plan = ctx.faults.plan();
	if (plan.before ?? plan.answer) {
		record.fault = plan.before ?? plan.answer;
		ctx.hooks.onFault?.(record);
	}
	if (plan.before === 'resetBeforeHandling') return ex.reset();
	if (plan.before === 'failure') {
		const message = 'Internal server error (injected by the sandbox failureRate option)';
		return ex.fail({ status: 500, code: 'internal_error', message });
	}
	if (plan.before === 'wrongContentType') {
		return ex.replyRaw(200, 'text/html; charset=utf-8', PROXY_PAGE);
	}
	if (plan.answer) ex.answerFault = plan.answer;
	ex.params = match.m.slice(1);
	await handler(ex, ctx);
}

export function createHostServer(ctx: SandboxContext, def: HostDefinition): Server {
	return createServer((req, res) => {
		const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
		const authorized =
			checkBasicAuth(
				req.headers.authorization,
				ctx.credentials.apiKey,
				ctx.credentials.apiSecret,
			) === 'ok';
		const record: RecordedRequest = {
			host: def.host,
			method: req.method ?? 'GET',
			path: url.pathname,
			query: Object.fromEntries(url.searchParams),
			headers: flattenHeaders(req),
			authorized,
			status: 0,
			receivedAt: Date.now(),
		};
		ctx.requests.push(record);
		const ex = makeExchange(ctx, def.host, req, res, record);
		dispatch(ctx, def, ex).catch((err: unknown) => {
			// A sandbox bug must surface as a 500 the test sees, not as a hung request.
			const detail = err instanceof Error ? err.message : String(err);
			void ex.fail({ status: 500, code: 'internal_error', message: `Sandbox error: ${detail}` });
		});
	});
}
