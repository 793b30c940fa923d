/**
 * A sandbox plus clients of the real client over the plain-Node transport, for the fault tests.
 * Clients can be given retry and timeout settings; `onceFaulted` lifts the fault knobs as soon as
 * the first request is hit, so "fails once, then recovers" is deterministic.
 */
import {
	type RetryOptions,
	SmsLeopardApiError,
	SmsLeopardConnectionError,
	SmsLeopardResponseError,
	type SmsLeopardClient,
} from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import {
	type RecordedRequest,
	type Sandbox,
	type SandboxOptions,
	SENDERS,
	startSandbox,
	TEMPLATES,
} from '../sandbox';

export const SENDER = SENDERS.primary.phone_number_id;

export interface ClientSettings {
	retry?: Partial<RetryOptions>;
	timeoutMs?: number;
}

export interface FaultEnv {
	sandbox: Sandbox;
	/** A client with fast backoff (5..20 ms) unless told otherwise. */
	client(settings?: ClientSettings): SmsLeopardClient;
	/** Sets fault knobs that are switched off again once one request has met a fault. */
	onceFaulted(knobs: Partial<SandboxOptions>): void;
	close(): Promise<void>;
}

const NO_FAULTS: Partial<SandboxOptions> = {
	failureRate: 0,
	resetRate: 0,
	slowRate: 0,
	malformedJsonRate: 0,
	wrongContentTypeRate: 0,
	burst429: 0,
};

export async function startFaultEnv(options: SandboxOptions = {}): Promise<FaultEnv> {
	let disarm: (() => void) | undefined;
	const sandbox = await startSandbox(options, {
		// As the fault is decided, not when its answer ends: a slow answer's retry must meet no fault.
		onFault() {
			if (disarm) {
				const off = disarm;
				disarm = undefined;
				off();
			}
		},
	});
	const transports: Array<{ close(): void }> = [];
	return {
		sandbox,
		client(settings = {}) {
			const { client, transport } = createNodeClient({
				...sandbox.credentialData,
				timeoutMs: settings.timeoutMs,
				retry: { baseDelayMs: 5, maxDelayMs: 20, ...settings.retry },
			});
			transports.push(transport);
			return client;
		},
		onceFaulted(knobs) {
			sandbox.setOptions(knobs);
			disarm = () => sandbox.setOptions(NO_FAULTS);
		},
		async close() {
			transports.forEach((transport) => transport.close());
			await sandbox.stop();
		},
	};
}

/** A send of the Flow template (no variables) to `destination`. */
export function sendTo(client: SmsLeopardClient, destination: string) {
	return client.sendTemplate({
		phoneNumberId: SENDER,
		templateId: TEMPLATES.flow.id,
		destination,
	});
}

/** Distinct valid Kenyan numbers in international format. */
export function destination(i: number): string {
	return `+2547${String(10_000_000 + i).padStart(8, '0')}`;
}

export const isSendPath = (r: RecordedRequest) => /^\/v1\/[^/]+\/send$/.test(r.path);

/** Send requests that got past the 429s: each one could have been acted on. */
export const sendAttempts = (sb: Sandbox) =>
	sb.requests.filter((r) => isSendPath(r) && r.status !== 429);

export const sendCount = (sb: Sandbox, to: string) => sb.state.sendCountByDestination[to] ?? 0;

/** Runs `run` and returns what it threw: the client tests' helper, so fault errors go through the secret scan too. */
export { caught } from '../support/sandbox-client';

/** The error classes a network fault may legitimately surface as. */
export function isTypedFaultError(error: unknown): boolean {
	return (
		error instanceof SmsLeopardConnectionError ||
		error instanceof SmsLeopardApiError ||
		error instanceof SmsLeopardResponseError
	);
}
