// The fault knobs beyond failureRate and the rate limit: bursts of 429, connection resets before
// and after handling, slow answers, truncated JSON and proxy pages. Raw HTTP, no project client.
import { parseArgs } from './cli';
import { startSandbox, TEMPLATES, type Sandbox } from './index';
import { AUTH, call, send, sendPayload } from './test-helpers';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const DESTINATION = '+254712345678';
const payload = () => sendPayload(TEMPLATES.flow.id, []);
const senders = () => call(`${sb.chatUrl}/v1/phone_number_ids`);

/** A raw send whose answer is read as text: never parsed, never thrown on a bad body. */
async function rawSend(): Promise<{ status: number; contentType: string; text: string }> {
	const res = await fetch(`${sb.chatUrl}/v1/${sb.channel}/send`, {
		method: 'POST',
		headers: { authorization: AUTH, 'content-type': 'application/json' },
		body: JSON.stringify(payload()),
	});
	return {
		status: res.status,
		contentType: res.headers.get('content-type') ?? '',
		text: await res.text(),
	};
}

const sendCount = () => sb.state.sendCountByDestination[DESTINATION] ?? 0;

describe('burst429', () => {
	it('refuses exactly the next N requests with 429 and Retry-After: 1, whatever the credentials', async () => {
		sb.setOptions({ burst429: 3 });
		const anonymous = await fetch(`${sb.chatUrl}/v1/phone_number_ids`);
		expect(anonymous.status).toBe(429);
		expect(anonymous.headers.get('retry-after')).toBe('1');
		const groups = await call(`${sb.contactsUrl}/v1/groups/fetch`);
		expect(groups.status).toBe(429);
		expect(groups.body).toEqual({ error: 'rate_limited', message: expect.any(String) });
		const sent = await send(sb, payload());
		expect(sent.status).toBe(429);
		expect(sent.body).toMatchObject({ error_code: 'rate_limited', status_code: 429 });
		expect(sendCount()).toBe(0);
		expect((await send(sb, payload())).status).toBe(200);
		expect(sendCount()).toBe(1);
		expect(sb.requests.map((r) => r.fault)).toEqual([
			'burst429',
			'burst429',
			'burst429',
			undefined,
		]);
	});

	it('counts down in place, can be re-armed, and reset() restores the start value', async () => {
		const armed = await startSandbox({ burst429: 1 });
		try {
			const first = await fetch(`${armed.chatUrl}/v1/phone_number_ids`, {
				headers: { authorization: AUTH },
			});
			expect(first.status).toBe(429);
			const second = await fetch(`${armed.chatUrl}/v1/phone_number_ids`, {
				headers: { authorization: AUTH },
			});
			expect(second.status).toBe(200);
			armed.reset();
			const again = await fetch(`${armed.chatUrl}/v1/phone_number_ids`, {
				headers: { authorization: AUTH },
			});
			expect(again.status).toBe(429);
		} finally {
			await armed.stop();
		}
	});

	it('does not occupy the rate-limit window', async () => {
		sb.setOptions({ burst429: 2, rateLimitPerSecond: 1 });
		expect((await senders()).status).toBe(429);
		expect((await senders()).status).toBe(429);
		expect((await senders()).status).toBe(200);
	});
});

describe('resetRate', () => {
	it('beforeHandling: destroys the socket before acting, nothing is sent or recorded as answered', async () => {
		sb.setOptions({ resetRate: 1 });
		await expect(rawSend()).rejects.toThrow();
		expect(sendCount()).toBe(0);
		expect(sb.state.sentMessages).toHaveLength(0);
		expect(sb.requests).toEqual([
			expect.objectContaining({ status: 0, fault: 'resetBeforeHandling' }),
		]);
		expect(sb.requests[0].body).toBeUndefined();
	});

	it('afterHandling: the message is sent, then the socket is destroyed unanswered', async () => {
		sb.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		await expect(rawSend()).rejects.toThrow();
		expect(sendCount()).toBe(1);
		expect(sb.state.sentMessages).toHaveLength(1);
		expect(sb.requests).toEqual([
			expect.objectContaining({
				status: 0,
				fault: 'resetAfterHandling',
				body: expect.objectContaining({ destination: DESTINATION }),
			}),
		]);
	});

	it('mixed: both kinds occur, and the count matches the after-handling resets exactly', async () => {
		sb.setOptions({ resetRate: 1, resetMode: 'mixed' });
		for (let i = 0; i < 30; i++) await expect(rawSend()).rejects.toThrow();
		const faults = sb.requests.map((r) => r.fault);
		const after = faults.filter((f) => f === 'resetAfterHandling').length;
		expect(after).toBeGreaterThan(5);
		expect(faults.filter((f) => f === 'resetBeforeHandling').length).toBe(30 - after);
		expect(sendCount()).toBe(after);
	});

	it('hits a deterministic fraction of GETs, the same ones after reset()', async () => {
		const run = async () => {
			sb.setOptions({ resetRate: 0.25 });
			const outcomes: string[] = [];
			for (let i = 0; i < 40; i++) {
				outcomes.push(
					await senders().then(
						(r) => String(r.status),
						() => 'reset',
					),
				);
			}
			return outcomes;
		};
		const first = await run();
		sb.reset();
		expect(await run()).toEqual(first);
		const resets = first.filter((o) => o === 'reset').length;
		expect(resets).toBeGreaterThan(3);
		expect(resets).toBeLessThan(20);
		expect(first.every((o) => o === 'reset' || o === '200')).toBe(true);
	});
});

describe('slowRate / slowMs', () => {
	it('acts at once and answers only after slowMs', async () => {
		sb.setOptions({ slowRate: 1, slowMs: 250 });
		const started = Date.now();
		const pending = rawSend();
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(sendCount()).toBe(1); // acted before answering
		const res = await pending;
		expect(Date.now() - started).toBeGreaterThanOrEqual(240);
		expect(res.status).toBe(200);
		expect(JSON.parse(res.text).recipients[0].number).toBe(DESTINATION);
		expect(sb.requests[0].fault).toBe('slow');
	});

	it('leaves the other requests fast', async () => {
		sb.setOptions({ slowRate: 0.5, slowMs: 300 });
		for (let i = 0; i < 10; i++) await senders();
		const slow = sb.requests.filter((r) => r.fault === 'slow').length;
		expect(slow).toBeGreaterThan(0);
		expect(slow).toBeLessThan(10);
	});
});

describe('malformedJsonRate', () => {
	it('acts, then answers 200 application/json with a truncated body', async () => {
		sb.setOptions({ malformedJsonRate: 1 });
		const res = await rawSend();
		expect(res.status).toBe(200);
		expect(res.contentType).toMatch(/^application\/json/);
		expect(() => JSON.parse(res.text)).toThrow();
		expect(res.text.startsWith('{"recipients":[{"id":"wamid.')).toBe(true);
		expect(sendCount()).toBe(1);
		expect(sb.requests[0]).toMatchObject({ status: 200, fault: 'malformedJson' });
	});

	it('truncates error answers too, keeping their status', async () => {
		sb.setOptions({ malformedJsonRate: 1 });
		const res = await fetch(`${sb.chatUrl}/v1/phone_number_ids/999/templates`, {
			headers: { authorization: AUTH },
		});
		expect(res.status).toBe(404);
		const text = await res.text();
		expect(() => JSON.parse(text)).toThrow();
		expect(text.startsWith('{"error_code":"not_found"')).toBe(true);
	});
});

describe('wrongContentTypeRate', () => {
	it('answers 200 text/html (a login page) without acting', async () => {
		sb.setOptions({ wrongContentTypeRate: 1 });
		const res = await rawSend();
		expect(res.status).toBe(200);
		expect(res.contentType).toMatch(/^text\/html/);
		expect(res.text).toMatch(/^<!DOCTYPE html>/);
		expect(sendCount()).toBe(0);
		expect(sb.requests[0]).toMatchObject({ status: 200, fault: 'wrongContentType' });
		expect(sb.requests[0].body).toBeUndefined();
	});
});

describe('knob independence and validation', () => {
	it('keeps the failureRate sequence whatever the lower-priority knobs do', async () => {
		const failures = async (extra: Parameters<Sandbox['setOptions']>[0]) => {
			sb.reset();
			sb.setOptions({ failureRate: 0.3, ...extra });
			const statuses: number[] = [];
			for (let i = 0; i < 30; i++) statuses.push((await senders()).status);
			return statuses.map((s) => s === 500);
		};
		const alone = await failures({});
		expect(await failures({ slowRate: 0.5, slowMs: 0, malformedJsonRate: 0 })).toEqual(alone);
	});

	it('refuses nonsense values', async () => {
		expect(() => sb.setOptions({ resetRate: 1.5 })).toThrow('resetRate');
		expect(() => sb.setOptions({ slowRate: -0.1 })).toThrow('slowRate');
		expect(() => sb.setOptions({ malformedJsonRate: Number.NaN })).toThrow('malformedJsonRate');
		expect(() => sb.setOptions({ wrongContentTypeRate: 2 })).toThrow('wrongContentTypeRate');
		expect(() => sb.setOptions({ slowMs: -1 })).toThrow('slowMs');
		expect(() => sb.setOptions({ burst429: 1.5 })).toThrow('burst429');
		expect(() => sb.setOptions({ resetMode: 'sometimes' as never })).toThrow('resetMode');
		await expect(startSandbox({ burst429: -1 })).rejects.toThrow('burst429');
	});

	it('reads the new CLI flags', () => {
		expect(
			parseArgs([
				'--reset-rate',
				'0.1',
				'--reset-mode=mixed',
				'--slow-rate',
				'0.2',
				'--slow-ms',
				'1500',
				'--malformed-json-rate=0.05',
				'--wrong-content-type-rate',
				'0.01',
				'--burst-429',
				'4',
			]),
		).toEqual({
			chatPort: 4010,
			contactsPort: 4011,
			resetRate: 0.1,
			resetMode: 'mixed',
			slowRate: 0.2,
			slowMs: 1500,
			malformedJsonRate: 0.05,
			wrongContentTypeRate: 0.01,
			burst429: 4,
		});
	});
});
