// A send loop under every fault at once. Each destination must end exactly once, as a success or
// a typed error, and the sandbox's own count must agree: no item lost, none sent twice, and a
// failure is reported as "not sent" only when the server really did not act.
import {
	SmsLeopardConnectionError,
	SmsLeopardRateLimitError,
	SmsLeopardResponseError,
	SmsLeopardServerError,
	type SendTemplateResult,
	type SmsLeopardClient,
} from '../../nodes/SmsLeopard/client';
import type { SandboxOptions } from '../sandbox';
import {
	type FaultEnv,
	SENDER,
	destination,
	isSendPath,
	isTypedFaultError,
	sendAttempts,
	sendCount,
	sendTo,
	startFaultEnv,
} from './fault-env';

let env: FaultEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

const MIXED: SandboxOptions = {
	seed: 7,
	burst429: 6,
	failureRate: 0.05,
	resetRate: 0.08,
	resetMode: 'mixed',
	slowRate: 0.05,
	slowMs: 1500,
	malformedJsonRate: 0.05,
	wrongContentTypeRate: 0.03,
};

type Outcome =
	{ to: string; ok: true; result: SendTemplateResult } | { to: string; ok: false; error: unknown };

/** Sends to every destination with `workers` in parallel; bounded: one call per destination. */
async function sendAll(
	client: SmsLeopardClient,
	targets: string[],
	workers: number,
): Promise<Outcome[]> {
	const outcomes: Outcome[] = [];
	let next = 0;
	await Promise.all(
		Array.from({ length: workers }, async () => {
			while (next < targets.length) {
				const to = targets[next++];
				try {
					outcomes.push({ to, ok: true, result: await sendTo(client, to) });
				} catch (error) {
					outcomes.push({ to, ok: false, error });
				}
			}
		}),
	);
	return outcomes;
}

/** Did the server act on this failed send? Decided from the error alone where it can be. */
function actedByError(error: unknown): boolean | 'unknown' {
	if (error instanceof SmsLeopardServerError) return false; // the sandbox's 500 never acts
	if (error instanceof SmsLeopardResponseError) {
		// Truncated JSON: the server acted. A proxy's HTML page: it never saw the request.
		return !String(error.body).startsWith('<!DOCTYPE html>');
	}
	return 'unknown'; // a reset (either kind) or a timeout: the client cannot know
}

describe('200 sends under mixed faults', () => {
	it('accounts for every destination exactly once, and never sends one twice', async () => {
		env.sandbox.setOptions(MIXED);
		const client = env.client({ timeoutMs: 500 });
		const targets = Array.from({ length: 200 }, (_, i) => destination(1000 + i));
		const started = Date.now();
		const outcomes = await sendAll(client, targets, 8);
		expect(Date.now() - started).toBeLessThan(20_000);

		// Every destination has exactly one outcome: none lost, none doubled.
		expect(outcomes).toHaveLength(200);
		expect(new Set(outcomes.map((o) => o.to)).size).toBe(200);

		const { sandbox } = env;
		const faultsSeen = new Set(sandbox.requests.map((r) => r.fault).filter(Boolean));
		for (const fault of [
			'burst429',
			'failure',
			'resetBeforeHandling',
			'resetAfterHandling',
			'slow',
			'malformedJson',
			'wrongContentType',
		]) {
			expect(faultsSeen).toContain(fault);
		}

		let actedFailures = 0;
		for (const outcome of outcomes) {
			const count = sendCount(sandbox, outcome.to);
			expect(count).toBeLessThanOrEqual(1);
			if (outcome.ok) {
				expect(count).toBe(1);
				expect(outcome.result.recipients[0].number).toBe(outcome.to);
				continue;
			}
			const { error } = outcome;
			expect(isTypedFaultError(error)).toBe(true);
			expect(error).not.toBeInstanceOf(SmsLeopardRateLimitError); // 429s are waited out
			if (error instanceof SmsLeopardConnectionError) expect(error.requestSent).toBe(true);
			const acted = actedByError(error);
			if (acted !== 'unknown') expect(count).toBe(acted ? 1 : 0);
			actedFailures += count;
		}

		// The sandbox agrees with the outcomes: sent = successes + failures the server acted on.
		const successes = outcomes.filter((o) => o.ok).length;
		expect(sandbox.state.sentMessages).toHaveLength(successes + actedFailures);
		expect(Object.values(sandbox.state.sendCountByDestination).every((n) => n === 1)).toBe(true);
		// Each destination reached the send handler's door at most once past the 429s: no retry of
		// anything the server might have acted on.
		expect(sendAttempts(sandbox)).toHaveLength(200);
		// The failures whose fate the client could not know split exactly as the sandbox says.
		const unknownActed = outcomes.filter(
			(o) => !o.ok && actedByError(o.error) === 'unknown' && sendCount(sandbox, o.to) === 1,
		).length;
		const lostAfterActing = sandbox.requests.filter(
			(r) =>
				isSendPath(r) &&
				(r.fault === 'resetAfterHandling' || (r.fault === 'slow' && r.status === 200)),
		).length;
		expect(unknownActed).toBe(lostAfterActing);
		expect(successes).toBeGreaterThan(100);
	}, 30_000);

	it('with retryUnsafe, the same faults do deliver some messages twice (why it is off)', async () => {
		env.sandbox.setOptions({ seed: 11, resetRate: 0.3, resetMode: 'afterHandling' });
		const bold = env.client({ retry: { retryUnsafe: true, maxRetries: 3 } });
		const targets = Array.from({ length: 40 }, (_, i) => destination(5000 + i));
		const outcomes = await sendAll(bold, targets, 4);
		expect(outcomes).toHaveLength(40);
		const counts = targets.map((to) => sendCount(env.sandbox, to));
		expect(counts.some((n) => n > 1)).toBe(true);
	});
});

describe('reads under mixed transport faults', () => {
	it('every read succeeds: resets, 500s, slow answers and 429 bursts are all retried', async () => {
		env.sandbox.setOptions({
			seed: 3,
			burst429: 3,
			failureRate: 0.1,
			resetRate: 0.15,
			resetMode: 'mixed',
			slowRate: 0.08,
			slowMs: 500,
		});
		const client = env.client({ timeoutMs: 150, retry: { maxRetries: 8 } });
		const reads = Array.from({ length: 60 }, (_, i) =>
			i % 2 === 0
				? client.listSenderNumbers().then((senders) => senders.map((s) => s.phone_number_id))
				: client.getGroupsPage({ page: 1 + (i % 3), per: 5 }).then((page) => page.groups),
		);
		const results = await Promise.all(reads);
		results.forEach((result, i) => {
			if (i % 2 === 0) expect(result).toContain(SENDER);
			else expect(result).toHaveLength(5);
		});
		const faults = new Set(env.sandbox.requests.map((r) => r.fault).filter(Boolean));
		expect(faults.size).toBeGreaterThanOrEqual(4);
	}, 20_000);
});
