/**
 * Listings kept across executions (Request Options > Keep Listings), in n8n-core's real engine
 * against the sandbox: one-send executions make one request each once the listings are kept, and
 * the kept listings are never the reason an item is refused, a refused send drops them, and no two
 * credentials share them. Each test starts from an empty process memory (support.ts).
 */
import { binaryItem } from '../harness';
import { type RecordedRequest, TEMPLATES, startSandbox } from '../sandbox';
import {
	flowSendParameters,
	jsonItems,
	senderLocator,
	templateLocator,
	useNodeEnv,
} from './support';

const env = useNodeEnv();

const SENDERS_PATH = '/v1/phone_number_ids';
const isSenderListing = (request: RecordedRequest) =>
	request.method === 'GET' && request.path === SENDERS_PATH;
const isTemplateListing = (request: RecordedRequest) =>
	request.method === 'GET' && /^\/v1\/phone_number_ids\/[^/]+\/templates$/.test(request.path);
const isListing = (request: RecordedRequest) =>
	isSenderListing(request) || isTemplateListing(request);
const isSend = (request: RecordedRequest) =>
	request.method === 'POST' && request.path.endsWith('/send');

function counted(requests: RecordedRequest[]) {
	return {
		listings: requests.filter(isListing).length,
		sends: requests.filter(isSend).length,
		all: requests.length,
	};
}

/** One execution, one item: a webhook per sign-up. */
async function sendOne(phone: string, extra: Record<string, unknown> = {}) {
	return await env.run({ ...flowSendParameters, ...extra }, jsonItems({ phone }));
}

const keepFor = (seconds: number) => ({ requestOptions: { keepListings: seconds } });

/** Send Template of tpl_pending (one body variable) to one recipient. */
const pendingTemplateSend = {
	...flowSendParameters,
	template: templateLocator(TEMPLATES.pending.id),
	bodyVariables: { variable: [{ placeholder: 1, value: 'REQ-7' }] },
};

describe('Send Template: listings kept across executions', () => {
	it('one-send executions make one request each once the listings are kept (3 each without)', async () => {
		for (let run = 0; run < 20; run++) {
			const { error } = await sendOne(`+2547003000${String(run).padStart(2, '0')}`);
			expect(error).toBeUndefined();
		}
		// The senders and the templates listed once, by the first execution: 22 requests, 20 sends.
		expect(counted(env.sandbox.requests)).toEqual({ listings: 2, sends: 20, all: 22 });

		env.sandbox.reset();
		for (let run = 0; run < 5; run++) {
			const { error } = await sendOne(`+25470030010${run}`, keepFor(0));
			expect(error).toBeUndefined();
		}
		// Keep Listings 0: every execution lists for itself, as before.
		expect(counted(env.sandbox.requests)).toEqual({ listings: 10, sends: 5, all: 15 });
	});

	it('executions missing the listings at the same time share one fetch', async () => {
		const runs = await Promise.all(
			Array.from({ length: 6 }, async (_, run) => await sendOne(`+25470030020${run}`)),
		);
		for (const { error } of runs) expect(error).toBeUndefined();
		expect(counted(env.sandbox.requests)).toEqual({ listings: 2, sends: 6, all: 8 });
	});

	it('a listing older than Keep Listings is fetched again', async () => {
		await sendOne('+254700300301', keepFor(1));
		await sendOne('+254700300302', keepFor(1));
		expect(counted(env.sandbox.requests).listings).toBe(2);
		await new Promise((resolve) => setTimeout(resolve, 1_100));
		await sendOne('+254700300303', keepFor(1));
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 3, all: 7 });
	});

	it('a template approved after its listing was kept sends: the refusal is checked against a fresh listing first', async () => {
		await sendOne('+254700300401'); // keeps the listing, where tpl_pending is PENDING
		const pending = env.sandbox.state.templates[1].find(
			(template) => template.id === TEMPLATES.pending.id,
		);
		if (!pending) throw new Error('the sandbox seed has no tpl_pending');
		pending.status = 'APPROVED'; // approved in the dashboard a moment later

		const { items, error } = await env.run(
			pendingTemplateSend,
			jsonItems({ phone: '+254700300402' }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ templateId: TEMPLATES.pending.id, status: 'Success' });
		// Listed once more (senders, then templates), then sent; nothing refused on the way.
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 2, all: 6 });

		// The fresh listing is kept in turn: the next execution sends without listing.
		await env.run(pendingTemplateSend, jsonItems({ phone: '+254700300403' }));
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 3, all: 7 });
	});

	it('a template still not approved is refused once a fresh listing says so, nothing sent', async () => {
		await sendOne('+254700300501');
		const { error } = await env.run(pendingTemplateSend, jsonItems({ phone: '+254700300502' }));
		expect(error?.message).toMatch(/PENDING|approved/i);
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 1, all: 5 });
	});

	it("a template deleted after its listing was kept: the send's error is shown and the kept listing dropped", async () => {
		await sendOne('+254700300601'); // keeps the listing, where the Flow template is
		env.sandbox.state.templates[1] = env.sandbox.state.templates[1].filter(
			(template) => template.id !== TEMPLATES.flow.id,
		);

		// The kept listing still has it, so the item passes the node's check and the service refuses.
		const { items } = await env.run(flowSendParameters, jsonItems({ phone: '+254700300602' }), {
			continueOnFail: true,
		});
		const refusal = env.sandbox.requests.filter(isSend).at(-1);
		expect(refusal?.status).toBe(404);
		expect(JSON.stringify(items[0].json)).toContain(TEMPLATES.flow.id);
		expect(items[0].json).toMatchObject({ error: expect.stringMatching(/not found|404/i) });
		expect(counted(env.sandbox.requests)).toEqual({ listings: 2, sends: 2, all: 4 });

		// Dropped: the next execution lists again and the node refuses before sending.
		const { error } = await sendOne('+254700300603');
		expect(error?.message).toContain('is not a template of sender');
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 2, all: 6 });
	});

	it("a whole URL is cut against a fresh listing only: a button's link edited since is not sent on the old one", async () => {
		const urlButtonSend = {
			...flowSendParameters,
			template: templateLocator(TEMPLATES.urlButton.id),
			variablesMode: 'define',
			bodyVariables: { variable: [{ placeholder: 1, value: 'P9' }] },
			buttons: { button: [{ kind: 'url', index: 0, value: 'https://shop.example.com/track/P9' }] },
		};
		await env.run(urlButtonSend, jsonItems({ phone: '+254700300651' })); // keeps the listing
		const template = env.sandbox.state.templates[1].find(
			(entry) => entry.id === TEMPLATES.urlButton.id,
		);
		if (!template) throw new Error('the sandbox seed has no URL button template');
		template.button[0].url = 'https://parcels.example.net/{{1}}'; // edited in the dashboard

		const { error } = await env.run(urlButtonSend, jsonItems({ phone: '+254700300652' }));
		// Cut against the kept listing it would go out as P9 on the new link; listed again first, the
		// whole URL no longer starts with the button's address and is refused, nothing sent.
		expect(error?.message).toContain('is a whole URL');
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 1, all: 5 });
	});

	it('a listing that failed is not kept: the next execution lists again', async () => {
		env.sandbox.setOptions({ noTemplateListing: true });
		await sendOne('+254700300701');
		await sendOne('+254700300702');
		// An account without the listing sends unchecked, and is asked again each execution.
		expect(counted(env.sandbox.requests)).toEqual({ listings: 4, sends: 2, all: 6 });
	});

	it('two credentials at once share nothing, not even with the same key and hosts', async () => {
		const other = await startSandbox();
		try {
			const [first, second] = await Promise.all([
				sendOne('+254700300801'),
				env.run(flowSendParameters, jsonItems({ phone: '+254700300802' }), {
					chatUrl: other.chatUrl,
					contactsUrl: other.contactsUrl,
				}),
			]);
			expect(first.error).toBeUndefined();
			expect(second.error).toBeUndefined();
			// Each account listed for itself and sent its own.
			expect(counted(env.sandbox.requests)).toEqual({ listings: 2, sends: 1, all: 3 });
			expect(counted(other.requests)).toEqual({ listings: 2, sends: 1, all: 3 });

			// Same key and hosts, another secret: its own listing (refused), never the kept one.
			const wrongSecret = await env.run(flowSendParameters, jsonItems({ phone: '+254700300803' }), {
				apiSecret: 'another-secret-0123456789',
			});
			expect(wrongSecret.error?.message).toMatch(/401|authenticat|credential/i);
			const last = env.sandbox.requests.at(-1);
			expect(last && isSenderListing(last) && last.status === 401).toBe(true);
			expect(counted(env.sandbox.requests).sends).toBe(1);
		} finally {
			await other.stop();
		}
	});
});

describe('the other operations: one request per send or item', () => {
	it('Media > Upload checks its sender once, then one upload per execution', async () => {
		for (let run = 0; run < 3; run++) {
			const item = await binaryItem(
				{},
				'data',
				Buffer.from(`%PDF-1.4 ${run}`),
				'a.pdf',
				'application/pdf',
			);
			const { error } = await env.run(
				{
					resource: 'media',
					operation: 'upload',
					senderNumber: senderLocator,
					binaryPropertyName: 'data',
				},
				[item],
			);
			expect(error).toBeUndefined();
		}
		const uploads = env.sandbox.requests.filter((request) => request.method === 'POST');
		expect(env.sandbox.requests.filter(isSenderListing)).toHaveLength(1);
		expect(uploads).toHaveLength(3);
	});

	it('Send SMS: one request per one-recipient execution, no listing', async () => {
		for (let run = 0; run < 3; run++) {
			const { error } = await env.run(
				{
					resource: 'message',
					operation: 'sendSms',
					source: 'SMS_Leopard',
					recipient: '={{ $json.phone }}',
					message: 'Welcome',
				},
				jsonItems({ phone: `+25470030090${run}` }),
			);
			expect(error).toBeUndefined();
		}
		expect(env.sandbox.requests).toHaveLength(3);
		expect(env.sandbox.requests.every((request) => request.method === 'POST')).toBe(true);
	});

	it('Template > Get Many lists afresh every time (senders, then templates), even with listings kept', async () => {
		await sendOne('+254700300951'); // keeps the listings
		for (let run = 0; run < 2; run++) {
			const { error } = await env.run(
				{ resource: 'template', operation: 'getAll', senderNumber: senderLocator },
				jsonItems({}),
			);
			expect(error).toBeUndefined();
		}
		expect(counted(env.sandbox.requests)).toEqual({ listings: 6, sends: 1, all: 7 });
	});

	it.each([
		['Account > Get Balance', { resource: 'account', operation: 'getBalance' }],
		['Sender Number > Get Many', { resource: 'senderNumber', operation: 'getAll' }],
	])('%s: one request per execution', async (_, parameters) => {
		for (let run = 0; run < 3; run++) {
			const { error } = await env.run(parameters, jsonItems({}));
			expect(error).toBeUndefined();
		}
		expect(env.sandbox.requests).toHaveLength(3);
	});
});
