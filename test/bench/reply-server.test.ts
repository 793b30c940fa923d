/**
 * The benchmarks' reply server (bench/reply-server) answers as the sandbox does, so a benchmark
 * timed against it measures the same node work as a run against the sandbox: the same answer
 * shapes, the same refusals, the same listings; and it counts what it received.
 */
import { type ReplyServer, startReplyServer } from '../../bench/reply-server';
import { type Sandbox, startSandbox } from '../sandbox';

const SENDER = '110000000000001';

/** The shape of a JSON value: its keys and the types of their values, all the way down. */
function shapeOf(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shapeOf);
	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value)
				.sort(([a], [b]) => a.localeCompare(b))
				.map(([key, inner]) => [key, shapeOf(inner)]),
		);
	}
	return typeof value;
}

describe('the reply server of the benchmarks', () => {
	let sandbox: Sandbox;
	let server: ReplyServer;
	let authorization: string;

	beforeAll(async () => {
		sandbox = await startSandbox({ latencyMs: 0 });
		server = await startReplyServer(sandbox);
		authorization = server.authorization;
	}, 60_000);
	afterAll(async () => {
		await server?.stop();
		await sandbox?.stop();
	});
	beforeEach(async () => {
		sandbox.reset();
		await server.reset({ latencyMs: 0 });
	});

	const post = async (base: string, path: string, body: unknown, auth = authorization) =>
		await fetch(`${base}${path}`, {
			method: 'POST',
			headers: { authorization: auth, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});

	const templateSend = (destination: string) => ({
		phone_number_id: SENDER,
		template_id: 'tpl_book_flow',
		destination,
		component_list: { components: [] },
	});

	it('answers a template send with the status and shape the sandbox gives, and counts it', async () => {
		const path = `/v1/${sandbox.channel}/send`;
		const fromSandbox = await post(sandbox.chatUrl, path, templateSend('+254710000001'));
		const fromServer = await post(server.chatUrl, path, templateSend('+254710000001'));
		expect(fromServer.status).toBe(fromSandbox.status);
		const answer = (await fromServer.json()) as { recipients: Array<{ number: string }> };
		expect(shapeOf(answer)).toEqual(shapeOf(await fromSandbox.json()));
		expect(answer.recipients[0].number).toBe('+254710000001');
		await post(server.chatUrl, path, templateSend('+254710000001'));
		const stats = await server.stats();
		expect(stats).toMatchObject({ sends: 2, distinct: 1, doubles: 1, requests: 2 });
		expect(stats.counts).toEqual({ '+254710000001': 2 });
	});

	it('answers an SMS request with one entry per destination, shaped as the sandbox answers', async () => {
		const body = {
			source: 'SMS_Leopard',
			message: 'Hello',
			destination: [{ number: '+254720000001' }, { number: '+254720000002' }],
		};
		const fromSandbox = await post(sandbox.contactsUrl, '/v1/sms/send', body);
		const fromServer = await post(server.contactsUrl, '/v1/sms/send', body);
		expect(fromSandbox.status).toBe(201);
		expect(fromServer.status).toBe(201);
		const answer = (await fromServer.json()) as { recipients: Array<{ number: string }> };
		expect(shapeOf(answer)).toEqual(shapeOf(await fromSandbox.json()));
		expect(answer.recipients.map((entry) => entry.number)).toEqual([
			'+254720000001',
			'+254720000002',
		]);
		expect((await server.stats()).sends).toBe(2);
	});

	it("reads back an SMS's delivery report and the balance, shaped as the sandbox answers", async () => {
		const body = {
			source: 'SMS_Leopard',
			message: 'Hello',
			destination: [{ number: '+254720000011' }, { number: '+254720000012' }],
		};
		const headers = { authorization };
		const idOf = async (answer: Response) =>
			((await answer.json()) as { recipients: Array<{ id: string }> }).recipients[0].id;
		const sandboxId = await idOf(await post(sandbox.contactsUrl, '/v1/sms/send', body));
		const serverId = await idOf(await post(server.contactsUrl, '/v1/sms/send', body));
		// The node reads a report only by a message id in the service's form.
		expect(serverId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		const read = async (base: string, path: string) => await fetch(`${base}${path}`, { headers });
		const sandboxReport = await read(sandbox.contactsUrl, `/v1/delivery_reports/${sandboxId}`);
		const serverReport = await read(server.contactsUrl, `/v1/delivery_reports/${serverId}`);
		expect(serverReport.status).toBe(sandboxReport.status);
		expect(shapeOf(await serverReport.json())).toEqual(shapeOf(await sandboxReport.json()));
		const unknown = '00000000-0000-4000-8000-ffffffffffff';
		expect((await read(server.contactsUrl, `/v1/delivery_reports/${unknown}`)).status).toBe(
			(await read(sandbox.contactsUrl, `/v1/delivery_reports/${unknown}`)).status,
		);
		const sandboxBalance = (await (await read(sandbox.contactsUrl, '/v1/balance')).json()) as {
			balance: number;
		};
		const serverBalance = (await (await read(server.contactsUrl, '/v1/balance')).json()) as {
			balance: number;
		};
		expect(shapeOf(serverBalance)).toEqual(shapeOf(sandboxBalance));
		// Two one-part SMS each, at the sandbox's price.
		expect(serverBalance.balance).toBe(sandboxBalance.balance);
		expect((await server.stats()).smsRequests).toBe(1);
	});

	it('replays what is not a send (the template listing) exactly as the sandbox answers it', async () => {
		const path = `/v1/phone_number_ids/${SENDER}/templates`;
		const headers = { authorization };
		const fromSandbox = await fetch(`${sandbox.chatUrl}${path}`, { headers });
		const fromServer = await fetch(`${server.chatUrl}${path}`, { headers });
		expect(fromServer.status).toBe(fromSandbox.status);
		expect(await fromServer.text()).toBe(await fromSandbox.text());
	});

	it('has the listings a send reads first before it is ready: no measured run pays for them', async () => {
		const headers = { authorization };
		const senders = (await (
			await fetch(`${server.chatUrl}/v1/phone_number_ids`, { headers })
		).json()) as Array<{ id: number }>;
		expect(senders.length).toBeGreaterThan(0);
		for (const { id } of senders) {
			const templates = await fetch(`${server.chatUrl}/v1/phone_number_ids/${id}/templates`, {
				headers,
			});
			expect(templates.status).toBe(200);
		}
		// Answered from memory: the sandbox was not asked again since the reset before this test.
		expect(sandbox.requests).toEqual([]);
	});

	it('refuses a wrong key with 401 and counts no send', async () => {
		const wrong = `Basic ${Buffer.from('nobody:wrong').toString('base64')}`;
		const answer = await post(
			server.chatUrl,
			`/v1/${sandbox.channel}/send`,
			templateSend('+254710000002'),
			wrong,
		);
		expect(answer.status).toBe(401);
		expect((await server.stats()).sends).toBe(0);
	});

	it('refuses beyond its limit with 429 and Retry-After, as the sandbox limiter does', async () => {
		await server.reset({ latencyMs: 0, limiter: { model: 'fixed', perSecond: 3 } });
		const path = `/v1/${sandbox.channel}/send`;
		const answers = await Promise.all(
			Array.from({ length: 8 }, (_, index) =>
				post(server.chatUrl, path, templateSend(`+2547100000${10 + index}`)),
			),
		);
		const refused = answers.filter((answer) => answer.status === 429);
		// 8 at once against 3 per clock second: at most 6 pass if the burst straddles a second.
		expect(refused.length).toBeGreaterThanOrEqual(2);
		expect(refused[0].headers.get('retry-after')).toMatch(/^\d+$/);
		const stats = await server.stats();
		expect(stats.refused429).toBe(refused.length);
		expect(stats.sends).toBe(8 - refused.length);
		expect(stats.receivedAt).toHaveLength(8 - refused.length);
	});

	it('answers a 429 at once when told to, before sends accepted just before it', async () => {
		// A gateway refuses before the service does any work: its 429 overtakes earlier sends.
		await server.reset({
			latencyMs: 300,
			refusalLatencyMs: 0,
			limiter: { model: 'tokenBucket', perSecond: 0.001, burst: 2 },
		});
		const path = `/v1/${sandbox.channel}/send`;
		const order: number[] = [];
		const sends = Array.from({ length: 3 }, (_, index) =>
			post(server.chatUrl, path, templateSend(`+2547100000${20 + index}`)).then((answer) => {
				order.push(answer.status);
				return answer;
			}),
		);
		await Promise.all(sends);
		expect(order).toEqual([429, 200, 200]);
	});

	it('measures its own CPU since the last reset', async () => {
		for (let index = 0; index < 20; index++) {
			await post(server.chatUrl, `/v1/${sandbox.channel}/send`, templateSend(`+25471000${index}`));
		}
		const stats = await server.stats();
		expect(stats.requests).toBe(20);
		expect(stats.cpuMs).toBeGreaterThan(0);
		await server.reset({ latencyMs: 0 });
		expect((await server.stats()).requests).toBe(0);
	});
});
