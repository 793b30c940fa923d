/**
 * An answer with a very deeply nested field (100,000 levels of objects or arrays) never crashes a
 * run, in n8n's real engine: the service accepted every send, so every item ends with its message
 * id and the deep part is cut to a short marker, the rest of the answer kept. Without the bound,
 * zod, the node's redaction or n8n's own copies of the output end the run with "Maximum call stack
 * size exceeded" and no ids.
 */
import type { INodeExecutionData } from 'n8n-workflow';
import { MAX_ANSWER_DEPTH, TOO_DEEP } from '../../nodes/SmsLeopard/client/http/answer-depth';
import { binaryItem } from '../harness';
import { SENDERS, TEMPLATES } from '../sandbox';
import {
	type DeepShape,
	type DeepeningProxy,
	deepJson,
	startDeepeningProxy,
	depthOf,
} from '../support/deepening-proxy';
import { startRecordingServer } from '../support/recording-server';
import {
	type NodeEnv,
	jsonItems,
	senderLocator,
	smsSendParameters,
	startNodeEnv,
	templateLocator,
	mediaUploadParameters,
} from './support';

const LEVELS = 100_000;

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

async function withProxy<T>(
	host: 'chatUrl' | 'contactsUrl',
	paths: RegExp,
	shape: DeepShape,
	run: (proxy: DeepeningProxy) => Promise<T>,
	inPlaceOf?: string,
): Promise<T> {
	const proxy = await startDeepeningProxy(env.credentials.smsLeopardApi[host], {
		paths,
		levels: LEVELS,
		shape,
		inPlaceOf,
	});
	try {
		return await run(proxy);
	} finally {
		await proxy.close();
	}
}

const outputText = (items: INodeExecutionData[]) => JSON.stringify(items.map((i) => i.json));

const phones = ['+254700500001', '+254700500002', '+254700500003'];

describe.each<DeepShape>(['objects', 'arrays'])(
	'a send answer nested 100,000 levels (%s)',
	(shape) => {
		it('Send Template with Include Raw Answer: every item sent with its id, the deep part cut', async () => {
			await withProxy('chatUrl', /\/send$/, shape, async (proxy) => {
				const { items, error } = await env.run(
					{
						resource: 'message',
						operation: 'sendTemplate',
						senderNumber: senderLocator,
						destination: '={{ $json.phone }}',
						template: templateLocator(TEMPLATES.flow.id),
						variablesMode: 'define',
						requestOptions: { includeRawAnswer: true },
					},
					jsonItems(...phones.map((phone) => ({ phone }))),
					{ chatUrl: proxy.url },
				);
				expect(error).toBeUndefined();
				expect(proxy.deepened).toHaveLength(3);
				const sent = env.sandbox.state.sentMessages;
				expect(sent).toHaveLength(3);
				const idOf = new Map(sent.map((message) => [message.destination, message.id]));
				expect(items.map((item) => item.json.messageId)).toEqual(phones.map((p) => idOf.get(p)));
				expect(outputText(items)).toContain(TOO_DEEP);
				for (const item of items)
					expect(depthOf(item.json)).toBeLessThanOrEqual(MAX_ANSWER_DEPTH + 2);
			});
		});

		it('Send SMS: every item sent with its id', async () => {
			await withProxy('contactsUrl', /^\/v1\/sms\/send$/, shape, async (proxy) => {
				const { items, error } = await env.run(
					{
						resource: 'message',
						operation: 'sendSms',
						source: 'SMS_Leopard',
						recipient: '={{ $json.phone }}',
						message: 'Flash sale today only',
						smsOptions: { recipientsPerRequest: 2 },
					},
					jsonItems(...phones.map((phone) => ({ phone }))),
					{ contactsUrl: proxy.url },
				);
				expect(error).toBeUndefined();
				expect(proxy.deepened).toHaveLength(2);
				const ids = env.sandbox.state.smsMessages.map((m) => m.id);
				expect(ids).toHaveLength(3);
				expect(items.map((item) => item.json.messageId)).toEqual(ids);
			});
		});

		// A deep value where the client expects the message id: what the id becomes is not this test's
		// concern (an odd id is refused elsewhere), only that the run ends with every send accounted for.
		const smsWithDeepIds = smsSendParameters();

		it('Send SMS with a deep value in place of each message id: the run ends with its summary', async () => {
			await withProxy(
				'contactsUrl',
				/^\/v1\/sms\/send$/,
				shape,
				async (proxy) => {
					const { items, error } = await env.run(
						smsWithDeepIds,
						jsonItems(...phones.map((phone) => ({ phone }))),
						{ contactsUrl: proxy.url },
					);
					expect(proxy.deepened).toHaveLength(1);
					expect(env.sandbox.state.smsMessages).toHaveLength(3);
					expect(`${error?.message}\n${error?.description}`).not.toMatch(/call stack/i);
					// No usable message id for anyone: all accepted, so all maybe sent, none "safe
					// to run again", and the summary is written.
					expect(items).toHaveLength(0);
					expect(error?.description).toMatch(/^Maybe sent[^:]*: items 1-3;/m);
					expect(error?.description).toMatch(/^Not sent.*: none\.$/m);
				},
				'id',
			);
		});

		it('Send SMS with a deep value in place of each message id, Continue On Fail: an item for each', async () => {
			await withProxy(
				'contactsUrl',
				/^\/v1\/sms\/send$/,
				shape,
				async (proxy) => {
					const { items, error } = await env.run(
						smsWithDeepIds,
						jsonItems(...phones.map((phone) => ({ phone }))),
						{ contactsUrl: proxy.url, continueOnFail: true },
					);
					expect(error).toBeUndefined();
					expect(env.sandbox.state.smsMessages).toHaveLength(3);
					expect(items).toHaveLength(3);
					for (const item of items) expect(JSON.stringify(item.json)).not.toMatch(/call stack/i);
					expect(items.map((item) => item.json.mayHaveBeenSent)).toEqual([true, true, true]);
				},
				'id',
			);
		});
	},
);

describe.each<DeepShape>(['objects', 'arrays'])(
	'a read answer nested 100,000 levels (%s)',
	(shape) => {
		it('Sender Number > Get Many lists the senders, the deep field cut to a marker', async () => {
			await withProxy('chatUrl', /^\/v1\/phone_number_ids$/, shape, async (proxy) => {
				const { items, error } = await env.run(
					{ resource: 'senderNumber', operation: 'getAll' },
					jsonItems({}),
					{ chatUrl: proxy.url },
				);
				expect(error).toBeUndefined();
				expect(proxy.deepened.length).toBeGreaterThan(0);
				expect(items.map((item) => item.json.phone_number_id)).toEqual(
					expect.arrayContaining([SENDERS.primary.phone_number_id]),
				);
				expect(outputText(items)).toContain(TOO_DEEP);
			});
		});

		it('Media > Upload outputs the media id, the deep field cut to a marker', async () => {
			await withProxy('chatUrl', /\/media$/, shape, async (proxy) => {
				const pdf = Buffer.from('%PDF-1.4\n' + 'brochure '.repeat(200));
				const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
				const { items, error } = await env.run(mediaUploadParameters(), [item], {
					chatUrl: proxy.url,
				});
				expect(error).toBeUndefined();
				expect(proxy.deepened.length).toBeGreaterThan(0);
				expect(items[0].json.media_id).toBe(env.sandbox.state.media[0].media_id);
				expect(outputText(items)).toContain(TOO_DEEP);
			});
		});
	},
);

describe.each<DeepShape>(['objects', 'arrays'])(
	'an error answer nested 100,000 levels (%s)',
	(shape) => {
		it('a refused send is an error item, not a crash', async () => {
			const server = await startRecordingServer((_request, response) => {
				response.writeHead(400, { 'content-type': 'application/json' });
				response.end(
					`{"error":"bad_request","message":"refused","details":${deepJson(LEVELS, shape)}}`,
				);
			});
			try {
				const { items, error } = await env.run(
					{
						resource: 'message',
						operation: 'sendSms',
						source: 'SMS_Leopard',
						recipient: '={{ $json.phone }}',
						message: 'Flash sale today only',
					},
					jsonItems({ phone: phones[0] }),
					{ contactsUrl: server.url, continueOnFail: true },
				);
				expect(error).toBeUndefined();
				expect(server.requests).toHaveLength(1);
				expect(JSON.stringify(items[0].json)).not.toMatch(/call stack/i);
				expect(JSON.stringify(items[0].json)).toContain('refused');
			} finally {
				await server.stop();
			}
		});
	},
);
