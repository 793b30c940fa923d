/**
 * The reply server's own process (started by ./index.ts with fork): two loopback listeners, the chat
 * host and the contacts host, each answering the benchmark's hot paths with precomputed answers
 * after a fixed latency. No validation, no logging, no state beyond counters: what a benchmark times
 * is n8n and the node, not the server (the sandbox's own work per request competed with n8n for the
 * two cores and made the HTTP Request node look slower than it is). The process measures its own CPU
 * so every figure can show what the server cost.
 *
 * Hot paths: POST /v1/<channel>/send (one template send) and POST /v1/sms/send (one or many SMS),
 * plus what the SMS benchmark reads after its send: GET /v1/delivery_reports/<id> of a message it
 * sent (delivered) and GET /v1/balance (the sandbox's start balance less what was sent, at the
 * sandbox's price of a one-part SMS: the benchmark's text is one part). Anything else (template
 * listing, sender numbers) is fetched once from the sandbox and replayed.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'http';
import type { AddressInfo } from 'net';

import { Limiter } from '../../test/sandbox/limiters';
import {
	SMS_COST_PER_PART,
	SMS_CURRENCY,
	SMS_START_BALANCE,
	SMS_USD_RATE,
} from '../../test/sandbox/seed';
import type { ReplyCommand, ReplyServerConfig, ReplyStats, ReplyRunOptions } from './protocol';

const config = JSON.parse(process.env.REPLY_SERVER_CONFIG ?? '{}') as ReplyServerConfig;
const SEND_PATH = `/v1/${config.channel}/send`;
const SMS_PATH = '/v1/sms/send';
const REPORT_PATH = /^\/v1\/delivery_reports\/([^/?]+)$/;
const BALANCE_PATH = '/v1/balance';
const JSON_HEADERS = { 'content-type': 'application/json' };

let run: ReplyRunOptions = { latencyMs: 20 };
let limiters: Record<'chat' | 'contacts', Limiter | undefined> = {
	chat: undefined,
	contacts: undefined,
};
let counts = new Map<string, number>();
let receivedAt: number[] = [];
let refusedAt: number[] = [];
let requests = 0;
let sends = 0;
let smsRequests = 0;
/** SMS message ids handed out since the reset, with when: their delivery reports can be read. */
let smsSentAt = new Map<string, number>();
/** CPU when the run's first request arrived and when its latest answer went out. */
let cpuAtFirst: NodeJS.CpuUsage | undefined;
let cpuAtLast: NodeJS.CpuUsage | undefined;
let messageSeq = 0;
/** From each request's arrival (its headers read) to its answer's end, summed: the latency served. */
let answeredMs = 0;
let answered = 0;
/** Answers fetched from the sandbox, by host and path with query. */
const replayed = new Map<string, { status: number; body: string }>();

function limiterFor(options: ReplyRunOptions): Limiter | undefined {
	const limit = options.limiter;
	return limit ? new Limiter(limit) : undefined;
}

function reset(options: ReplyRunOptions): void {
	run = options;
	limiters = { chat: limiterFor(options), contacts: limiterFor(options) };
	counts = new Map();
	receivedAt = [];
	refusedAt = [];
	requests = 0;
	sends = 0;
	smsRequests = 0;
	smsSentAt = new Map();
	cpuAtFirst = undefined;
	cpuAtLast = undefined;
	answeredMs = 0;
	answered = 0;
}

function stats(): ReplyStats {
	// From the first request to the last answer: the server's cost while n8n sends, not its idle
	// time before (n8n's start-up) or after.
	const cpu =
		cpuAtFirst && cpuAtLast
			? { user: cpuAtLast.user - cpuAtFirst.user, system: cpuAtLast.system - cpuAtFirst.system }
			: { user: 0, system: 0 };
	let doubles = 0;
	for (const times of counts.values()) if (times > 1) doubles += 1;
	return {
		requests,
		sends,
		smsRequests,
		refused429: refusedAt.length,
		distinct: counts.size,
		doubles,
		cpuMs: (cpu.user + cpu.system) / 1000,
		meanAnswerMs: answered > 0 ? answeredMs / answered : 0,
		receivedAt,
		refusedAt,
		counts: Object.fromEntries(counts),
	};
}

function count(destination: string): void {
	sends += 1;
	counts.set(destination, (counts.get(destination) ?? 0) + 1);
}

/** A template send: `{ destination }` in, one recipient entry out, shaped as the sandbox answers. */
function answerSend(body: string): string {
	const destination = String((JSON.parse(body) as { destination?: unknown }).destination);
	count(destination);
	messageSeq += 1;
	// A message id of a real one's length (a UUID, 36 characters): the record keeps every one.
	return `{"recipients":[{"id":"${messageId(messageSeq)}","cost":0.8,"number":${JSON.stringify(destination)},"status":"Success"}]}`;
}

/** A message id in the form the service gives (a UUID), unique since the server started. */
function messageId(seq: number): string {
	return `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`;
}

/** An SMS request: one recipient entry per destination, shaped as the sandbox answers. */
function answerSms(body: string): string {
	const parsed = JSON.parse(body) as { destination?: Array<{ number?: unknown }> };
	smsRequests += 1;
	const entries: string[] = [];
	const now = Date.now();
	for (const entry of parsed.destination ?? []) {
		const number = String(entry.number);
		count(number);
		messageSeq += 1;
		const id = messageId(messageSeq);
		smsSentAt.set(id, now);
		entries.push(
			`{"id":"${id}","cost":${SMS_COST_PER_PART},"number":${JSON.stringify(number)},"status":"queued"}`,
		);
	}
	const total = (entries.length * SMS_COST_PER_PART).toFixed(2);
	return `{"success":true,"message":"Sent to ${entries.length}/${entries.length}. Cost ${SMS_CURRENCY} ${total}","recipients":[${entries.join(',')}]}`;
}

/** A delivery report of a message sent since the reset: delivered, as the sandbox says once due. */
function answerReport(id: string): { status: number; body: string } {
	const sentAt = smsSentAt.get(decodeURIComponent(id).toLowerCase());
	if (sentAt === undefined) {
		return { status: 404, body: `{"message":"No message with id ${id}"}` };
	}
	const time = Math.floor(sentAt / 1000);
	return { status: 201, body: `{"id":"${id}","status":"DELIVRD","reason":"","time":${time}}` };
}

/** The balance: the sandbox's start less every SMS sent since the reset. */
function answerBalance(): string {
	const balance = Math.round((SMS_START_BALANCE - smsSentAt.size * SMS_COST_PER_PART) * 100) / 100;
	const converted = Math.round(balance * SMS_USD_RATE * 100) / 100;
	return `{"balance":${balance},"conversion_rate":${SMS_USD_RATE},"converted_balance":${converted},"currency":"${SMS_CURRENCY}"}`;
}

async function replay(
	host: 'chat' | 'contacts',
	req: Pick<IncomingMessage, 'method' | 'url' | 'headers'>,
): Promise<{ status: number; body: string }> {
	const key = `${host} ${req.method} ${req.url}`;
	const known = replayed.get(key);
	if (known) return known;
	const base = host === 'chat' ? config.sandboxChatUrl : config.sandboxContactsUrl;
	const answer = await fetch(`${base}${req.url}`, {
		method: req.method,
		headers: { authorization: req.headers.authorization ?? '' },
	});
	const fetched = { status: answer.status, body: await answer.text() };
	replayed.set(key, fetched);
	return fetched;
}

/**
 * The listings every send reads first (sender numbers, then the sender's templates), fetched before
 * the server reports ready: fetched on first use, the sandbox's round trips (about 100 ms) were
 * charged to whichever measured run came first, the node at defaults.
 */
async function prefetchListings(): Promise<void> {
	const ask = async (url: string) =>
		await replay('chat', { method: 'GET', url, headers: { authorization: config.authorization } });
	const senders = await ask('/v1/phone_number_ids');
	if (senders.status !== 200) return;
	const records = JSON.parse(senders.body) as Array<{ id?: unknown }>;
	for (const { id } of Array.isArray(records) ? records : []) {
		if (id !== undefined) await ask(`/v1/phone_number_ids/${String(id)}/templates`);
	}
}

/** When each request arrived (its headers read), for the latency it was served with. */
const arrivedAt = new WeakMap<ServerResponse, number>();

function reply(
	res: ServerResponse,
	status: number,
	body: string,
	headers: Record<string, string> = JSON_HEADERS,
	latencyMs = run.latencyMs,
): void {
	const send = () => {
		res.writeHead(status, headers);
		res.end(body);
		cpuAtLast = process.cpuUsage();
		const arrived = arrivedAt.get(res);
		if (arrived !== undefined) {
			answeredMs += performance.now() - arrived;
			answered += 1;
		}
	};
	if (latencyMs > 0) setTimeout(send, latencyMs);
	else send();
}

function listener(host: 'chat' | 'contacts') {
	return (req: IncomingMessage, res: ServerResponse): void => {
		arrivedAt.set(res, performance.now());
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const now = Date.now();
			cpuAtFirst ??= process.cpuUsage();
			requests += 1;
			if (req.headers.authorization !== config.authorization) {
				reply(res, 401, '{"message":"Unauthorized"}');
				return;
			}
			const refusal = limiters[host]?.admit(now);
			if (refusal) {
				refusedAt.push(now);
				const headers: Record<string, string> = { ...JSON_HEADERS };
				if (refusal.retryAfter !== null) headers['retry-after'] = refusal.retryAfter;
				reply(
					res,
					429,
					'{"message":"Too Many Requests"}',
					headers,
					run.refusalLatencyMs ?? run.latencyMs,
				);
				return;
			}
			if (req.method === 'POST') receivedAt.push(now);
			const body = Buffer.concat(chunks).toString('utf8');
			if (req.method === 'POST' && req.url === SEND_PATH) reply(res, 200, answerSend(body));
			else if (req.method === 'POST' && req.url === SMS_PATH) reply(res, 201, answerSms(body));
			else if (req.method === 'GET' && req.url === BALANCE_PATH) reply(res, 200, answerBalance());
			else if (req.method === 'GET' && REPORT_PATH.test(req.url ?? '')) {
				const report = answerReport(REPORT_PATH.exec(req.url ?? '')?.[1] ?? '');
				reply(res, report.status, report.body);
			} else
				void replay(host, req).then(
					(answer) => reply(res, answer.status, answer.body),
					() => reply(res, 502, '{"message":"sandbox unreachable"}'),
				);
		});
	};
}

async function listen(server: Server): Promise<number> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
	const chat = createServer({ keepAlive: true }, listener('chat'));
	const contacts = createServer({ keepAlive: true }, listener('contacts'));
	const ports = { chat: await listen(chat), contacts: await listen(contacts) };
	await prefetchListings();
	process.on('message', (command: ReplyCommand) => {
		if (command.type === 'reset') {
			reset(command.options);
			process.send?.({ type: 'reset', id: command.id });
		} else if (command.type === 'stats') {
			process.send?.({ type: 'stats', id: command.id, stats: stats() });
		} else if (command.type === 'progress') {
			const progress = { requests, sends, refused429: refusedAt.length };
			process.send?.({ type: 'progress', id: command.id, progress });
		} else if (command.type === 'stop') {
			chat.close();
			contacts.close();
			process.disconnect?.();
		}
	});
	// The bench gone (Ctrl-C, a crash): nothing is left listening.
	process.on('disconnect', () => process.exit(0));
	process.send?.({ type: 'ready', ports });
}

void main();
