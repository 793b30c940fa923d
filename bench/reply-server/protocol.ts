/** What the bench process and the reply server's process say to each other (over fork's IPC). */
import type { LimiterSettings } from '../../test/sandbox/limiters';

export interface ReplyServerConfig {
	channel: string;
	/** The exact Authorization header every request must carry (else 401). */
	authorization: string;
	/** Where the rare non-hot-path requests are fetched once, then replayed. */
	sandboxChatUrl: string;
	sandboxContactsUrl: string;
}

export interface ReplyRunOptions {
	latencyMs: number;
	/**
	 * How long a 429 takes (default: latencyMs). A gateway refuses before the service does any
	 * work, so its 429s commonly come back sooner than a send's answer, and overtake it.
	 */
	refusalLatencyMs?: number;
	/** One limiter per host, as the sandbox has. */
	limiter?: LimiterSettings;
}

export interface ReplyStats {
	/** Every request, refused ones included. */
	requests: number;
	/** Recipients accepted (a template send is one, an SMS request one per destination). */
	sends: number;
	/** POST /v1/sms/send requests accepted. */
	smsRequests: number;
	refused429: number;
	distinct: number;
	/** Recipients accepted more than once. */
	doubles: number;
	/** The server process's CPU (user + system) from the first request to the last answer. */
	cpuMs: number;
	/**
	 * The latency actually served: mean ms from a request's arrival to its answer's end. A timer of
	 * 20 ms fires a little later, and the body is read before it starts.
	 */
	meanAnswerMs: number;
	/** Accepted POSTs' arrival times (ms since epoch), and refusals'. */
	receivedAt: number[];
	refusedAt: number[];
	counts: Record<string, number>;
}

/** The counters alone: cheap to ask for every second of a long run (stats carries every send). */
export interface ReplyProgress {
	requests: number;
	sends: number;
	refused429: number;
}

export type ReplyCommand =
	| { type: 'reset'; id: number; options: ReplyRunOptions }
	| { type: 'stats'; id: number }
	| { type: 'progress'; id: number }
	| { type: 'stop' };

export type ReplyMessage =
	| { type: 'ready'; ports: { chat: number; contacts: number } }
	| { type: 'reset'; id: number }
	| { type: 'stats'; id: number; stats: ReplyStats }
	| { type: 'progress'; id: number; progress: ReplyProgress };
