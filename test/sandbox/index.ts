// In-process entry point: startSandbox() runs the chat host and the contacts host on 127.0.0.1 and
// hands back their URLs, the demo credentials, the live state and the request log.
import { randomBytes } from 'node:crypto';
import { type CallbackRecord, postWhatsAppEvent } from './callbacks';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatHost } from './chat-routes';
import { contactsHost } from './contacts-routes';
import { createContext, mergeOptions, resetContext } from './context';
import { createHostServer } from './server';
import { applyGroupCount } from './state';
import type { RecordedRequest, SandboxHooks, SandboxOptions, SandboxState } from './types';

export * from './seed';
export type {
	ContactRecord,
	Group,
	MediaRecord,
	MediaType,
	RecordedFile,
	RecordedRequest,
	SandboxHooks,
	SandboxOptions,
	SandboxState,
	Sender,
	SentMessage,
	SmsRecord,
	Template,
	TemplateButton,
	TemplateHeader,
} from './types';

export interface SandboxCredentialData {
	apiKey: string;
	apiSecret: string;
	chatUrl: string;
	contactsUrl: string;
	channel: string;
}

export interface Sandbox {
	chatUrl: string;
	contactsUrl: string;
	channel: string;
	credentials: { apiKey: string; apiSecret: string };
	/** The SMSLeopard credential's fields pointing at this sandbox (as n8n stores them). */
	credentialData: SandboxCredentialData;
	requests: RecordedRequest[];
	state: SandboxState;
	setOptions(partial: Partial<SandboxOptions>): void;
	/** A copy of the knobs as they are now, so a test can put them back with restoreOptions. */
	currentOptions(): SandboxOptions;
	/** The knobs exactly as `saved` had them: one set since (a webhook URL) is unset again. */
	restoreOptions(saved: SandboxOptions): void;
	/** Delivery reports and WhatsApp events posted so far, with the receiver's status. */
	callbacks: CallbackRecord[];
	/**
	 * A customer answers on WhatsApp: posted to the WhatsApp webhook URL in Meta's shape, a
	 * quick-reply tap when `payload` is given (replying to message `to`), else a text message.
	 */
	customerReplies(reply: {
		from: string;
		text: string;
		payload?: string;
		to?: string;
	}): Promise<number>;
	reset(): void;
	stop(): Promise<void>;
}

function listen(server: Server, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		// Loopback only: the sandbox must never be reachable from another machine.
		server.listen(port, '127.0.0.1', () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function close(server: Server): Promise<void> {
	return new Promise((resolve) => {
		if (!server.listening) return resolve();
		server.close(() => resolve());
		// Keep-alive and in-flight sockets would hold close() open; end them now.
		server.closeAllConnections();
	});
}

export async function startSandbox(
	options: SandboxOptions = {},
	hooks: SandboxHooks = {},
): Promise<Sandbox> {
	const ctx = createContext(options, hooks);
	const chatServer = createHostServer(ctx, chatHost(ctx.options.channel));
	const contactsServer = createHostServer(ctx, contactsHost());
	let chatPort: number;
	let contactsPort: number;
	try {
		chatPort = await listen(chatServer, ctx.options.chatPort);
		contactsPort = await listen(contactsServer, ctx.options.contactsPort);
	} catch (err) {
		await Promise.all([close(chatServer), close(contactsServer)]);
		throw err;
	}
	const chatUrl = `http://127.0.0.1:${chatPort}`;
	const contactsUrl = `http://127.0.0.1:${contactsPort}`;
	const channel = ctx.options.channel;
	const setOptions = (partial: Partial<SandboxOptions>) => {
		// Ports and channel are fixed once listening; changing them at run time is ignored.
		const { chatPort: _c, contactsPort: _p, channel: _ch, ...knobs } = partial;
		const next = mergeOptions(ctx.options, knobs);
		const seedChanged = next.seed !== ctx.options.seed;
		Object.assign(ctx.options, next);
		if (seedChanged) ctx.faults.reset();
		applyGroupCount(ctx.state, ctx.options.groupCount);
	};
	return {
		chatUrl,
		contactsUrl,
		channel,
		credentials: { ...ctx.credentials },
		credentialData: { ...ctx.credentials, chatUrl, contactsUrl, channel },
		requests: ctx.requests,
		state: ctx.state,
		callbacks: ctx.callbacks.log,
		async customerReplies(reply) {
			const url = ctx.options.whatsappWebhookUrl;
			if (!url) throw new Error('customerReplies needs the whatsappWebhookUrl option');
			const message: Record<string, unknown> = {
				from: reply.from.replace(/^\+/, ''),
				id: `wamid.reply.${randomBytes(6).toString('hex')}`,
				timestamp: String(Math.floor(Date.now() / 1000)),
				...(reply.to ? { context: { from: 'sandbox', id: reply.to } } : {}),
				...(reply.payload
					? { type: 'button', button: { payload: reply.payload, text: reply.text } }
					: { type: 'text', text: { body: reply.text } }),
			};
			return await postWhatsAppEvent(ctx.callbacks, url, ctx.options.whatsappWebhookSecret ?? '', {
				messaging_product: 'whatsapp',
				contacts: [{ wa_id: message.from }],
				messages: [message],
			});
		},
		setOptions,
		currentOptions() {
			return { ...ctx.options };
		},
		restoreOptions(saved) {
			const unset = Object.keys(ctx.options).filter((key) => !(key in saved));
			setOptions({
				...saved,
				...Object.fromEntries(unset.map((key) => [key, undefined])),
			});
		},
		reset() {
			resetContext(ctx);
		},
		stop() {
			ctx.callbacks.cancelAll();
			return Promise.all([close(chatServer), close(contactsServer)]).then(() => undefined);
		},
	};
}
export { MEDIA_LIMITS, MEDIA_MIME_TYPES } from './media-types';
export { ACCEPTED_BUTTON_NAMES } from './button-names';
export {
	type CallbackRecord,
	REPORT_SECRET_WAYS,
	REPORT_SHAPES,
	type ReportSecretIn,
	type ReportShape,
} from './callbacks';
