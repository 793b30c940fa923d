/** A sandbox and a client of the plain-Node transport pointed at it, for client tests. */
import type { SmsLeopardClient } from '../../nodes/SmsLeopard/client';
import type { RetryOptions } from '../../nodes/SmsLeopard/client';
import { createNodeClient } from './node-http-transport';
import { type Sandbox, type SandboxOptions, startSandbox } from '../sandbox';
import { recordForSecretScan } from '../secret-scan/record';

export interface SandboxClient {
	sandbox: Sandbox;
	client: SmsLeopardClient;
	/** Another client with other credentials or retry settings, closed with the rest. */
	clientWith(options: { apiSecret?: string; retry?: Partial<RetryOptions> }): SmsLeopardClient;
	close(): Promise<void>;
}

export async function startSandboxClient(options: SandboxOptions = {}): Promise<SandboxClient> {
	const sandbox = await startSandbox(options);
	const transports: Array<{ close(): void }> = [];
	const make = (extra: { apiSecret?: string; retry?: Partial<RetryOptions> } = {}) => {
		const { client, transport } = createNodeClient({
			apiKey: sandbox.credentials.apiKey,
			apiSecret: extra.apiSecret ?? sandbox.credentials.apiSecret,
			chatUrl: sandbox.chatUrl,
			contactsUrl: sandbox.contactsUrl,
			channel: sandbox.channel,
			retry: { baseDelayMs: 5, maxDelayMs: 20, ...extra.retry },
		});
		transports.push(transport);
		return client;
	};
	return {
		sandbox,
		client: make(),
		clientWith: make,
		close: async () => {
			transports.forEach((transport) => transport.close());
			await sandbox.stop();
		},
	};
}

/** Runs `run` and returns what it threw, failing the test when it did not throw. */
export async function caught<T = Error>(run: () => Promise<unknown> | unknown): Promise<T> {
	try {
		await run();
	} catch (error) {
		recordForSecretScan('client error', error);
		return error as T;
	}
	throw new Error('expected an error, got none');
}
