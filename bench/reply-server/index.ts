/**
 * Starts the reply server (./server.ts) in its own process and talks to it: reset before a run,
 * stats after it. Its own process so its CPU is measured apart from the bench's and n8n's.
 */
import { type ChildProcess, fork } from 'child_process';
import * as path from 'path';

import type { Sandbox } from '../../test/sandbox';
import type {
	ReplyCommand,
	ReplyMessage,
	ReplyProgress,
	ReplyRunOptions,
	ReplyStats,
} from './protocol';

export type { ReplyProgress, ReplyRunOptions, ReplyStats } from './protocol';

export interface ReplyServer {
	chatUrl: string;
	contactsUrl: string;
	channel: string;
	/** The Authorization header the server accepts (the sandbox's key and secret). */
	authorization: string;
	reset(options: ReplyRunOptions): Promise<void>;
	stats(): Promise<ReplyStats>;
	/** Requests, sends and 429s so far, without the per-send detail of stats(). */
	progress(): Promise<ReplyProgress>;
	stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
const ANSWER_TIMEOUT_MS = 10_000;

/** A reply server answering as `sandbox` would, with its credentials and channel. */
export async function startReplyServer(sandbox: Sandbox): Promise<ReplyServer> {
	const { apiKey, apiSecret } = sandbox.credentials;
	const authorization = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`;
	const child = fork(path.join(__dirname, 'server.ts'), [], {
		execArgv: ['--import', 'tsx'],
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		env: {
			...process.env,
			REPLY_SERVER_CONFIG: JSON.stringify({
				channel: sandbox.channel,
				authorization,
				sandboxChatUrl: sandbox.chatUrl,
				sandboxContactsUrl: sandbox.contactsUrl,
			}),
		},
	});
	const ports = await answerOf<{ chat: number; contacts: number }>(
		child,
		(message) => (message.type === 'ready' ? message.ports : undefined),
		READY_TIMEOUT_MS,
		'the reply server did not start',
	);
	let nextId = 0;
	const ask = async <T>(command: ReplyCommand, pick: (message: ReplyMessage) => T | undefined) => {
		const answer = answerOf(child, pick, ANSWER_TIMEOUT_MS, `no answer to ${command.type}`);
		child.send(command);
		return await answer;
	};
	return {
		chatUrl: `http://127.0.0.1:${ports.chat}`,
		contactsUrl: `http://127.0.0.1:${ports.contacts}`,
		channel: sandbox.channel,
		authorization,
		async reset(options) {
			const id = ++nextId;
			await ask({ type: 'reset', id, options }, (message) =>
				message.type === 'reset' && message.id === id ? true : undefined,
			);
		},
		async stats() {
			const id = ++nextId;
			return await ask({ type: 'stats', id }, (message) =>
				message.type === 'stats' && message.id === id ? message.stats : undefined,
			);
		},
		async progress() {
			const id = ++nextId;
			return await ask({ type: 'progress', id }, (message) =>
				message.type === 'progress' && message.id === id ? message.progress : undefined,
			);
		},
		async stop() {
			if (child.exitCode !== null || !child.connected) return;
			const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
			child.send({ type: 'stop' });
			const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
			await exited;
			clearTimeout(timer);
		},
	};
}

/** The first message `pick` accepts, within `timeoutMs`; rejects if the process exits first. */
function answerOf<T>(
	child: ChildProcess,
	pick: (message: ReplyMessage) => T | undefined,
	timeoutMs: number,
	failure: string,
): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const done = () => {
			clearTimeout(timer);
			child.off('message', onMessage);
			child.off('exit', onExit);
		};
		const onMessage = (message: ReplyMessage) => {
			const value = pick(message);
			if (value === undefined) return;
			done();
			resolve(value);
		};
		const onExit = (code: number | null) => {
			done();
			reject(new Error(`${failure}: it exited (${String(code)})`));
		};
		const timer = setTimeout(() => {
			done();
			reject(new Error(`${failure} within ${timeoutMs} ms`));
		}, timeoutMs);
		child.on('message', onMessage);
		child.on('exit', onExit);
	});
}
