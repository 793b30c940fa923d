// One node:http server per host family, with the pipeline every request goes through:
// record -> rate limit -> route (404/405) -> auth (401) -> injected failure (500) -> handler.
// Routing before auth is a choice (the spec does not say): like a reverse proxy in front of the
// application, an unknown path is answered 404 whatever the credentials, which makes a wrong base
// URL easy to tell from wrong credentials.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { authFailureMessage, checkBasicAuth } from './auth';
import type { SandboxContext } from './context';
import { errorBody, unauthorizedBody } from './errors';
import { flattenHeaders, sleep, writeJson } from './http-util';
import type { HostName, Problem, RecordedRequest } from './types';

export interface Exchange {
	host: HostName;
	req: IncomingMessage;
	res: ServerResponse;
	record: RecordedRequest;
	/** Capture groups of the matched route pattern. */
	params: string[];
	reply(status: number, body: unknown, headers?: Record<string, string>): Promise<void>;
	fail(problem: Problem, headers?: Record<string, string>): Promise<void>;
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

function makeExchange(
	ctx: SandboxContext,
	host: HostName,
	req: IncomingMessage,
	res: ServerResponse,
	record: RecordedRequest,
): Exchange {
	const reply = async (status: number, body: unknown, headers?: Record<string, string>) => {
		if (record.status !== 0) return; // answered already
		record.status = status;
		if (ctx.options.latencyMs > 0) await sleep(ctx.options.latencyMs);
		writeJson(res, status, body, headers);
		ctx.hooks.onResponse?.(record, Date.now() - record.receivedAt);
	};
	return {
		host,
		req,
		res,
		record,
		params: [],
		reply,
		fail: (problem, headers) =>
			reply(
				problem.status,
				errorBody(host, problem.status, problem.code, problem.message),
				headers,
			),
	};
}

async function dispatch(ctx: SandboxContext, def: HostDefinition, ex: Exchange): Promise<void> {
	const { record, req } = ex;
	const retryAfter = ctx.faults.admit(def.host, record.receivedAt);
	if (retryAfter !== null) {
		const message = `Rate limit of ${ctx.options.rateLimitPerSecond} requests per second exceeded; retry after ${retryAfter} s`;
		return ex.fail(
			{ status: 429, code: 'rate_limited', message },
			{ 'Retry-After': `${retryAfter}` },
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
	if (ctx.faults.shouldFail()) {
		const message = 'Internal server error (injected by the sandbox failureRate option)';
		return ex.fail({ status: 500, code: 'internal_error', message });
	}
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
