/**
 * What a marketer sees when the service answers a read with odd values: the field is null and the
 * output item says why in `notes`, instead of a coerced figure (a balance of true reported as 1) or
 * a lost run. Through n8n's real engine, against a loopback server that answers as told.
 */
import type { IncomingMessage, ServerResponse } from 'http';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { runNode } from '../harness';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox';
import { type RecordingServer, startRecordingServer } from '../support/recording-server';

/** The JSON the server answers next, by path. */
const answers = new Map<string, unknown>();
let server: RecordingServer;

beforeAll(async () => {
	server = await startRecordingServer((request: IncomingMessage, response: ServerResponse) => {
		const path = (request.url ?? '').split('?')[0];
		response.writeHead(answers.has(path) ? 200 : 404, { 'content-type': 'application/json' });
		response.end(JSON.stringify(answers.get(path) ?? { message: 'not found' }));
	});
});
afterAll(async () => await server.stop());

async function runWithError(parameters: Record<string, unknown>, continueOnFail = false) {
	return await runNode({
		nodeType: new SmsLeopard(),
		credentialTypes: [new SmsLeopardApi()],
		credentials: {
			smsLeopardApi: {
				apiKey: SANDBOX_API_KEY,
				apiSecret: SANDBOX_API_SECRET,
				chatUrl: server.url,
				contactsUrl: server.url,
				channel: 'whatsapp',
			},
		},
		parameters: parameters as never,
		continueOnFail,
	});
}

async function run(parameters: Record<string, unknown>) {
	const result = await runWithError(parameters);
	expect(result.error).toBeUndefined();
	return result.items.map((item) => item.json);
}

describe('Account > Get Balance', () => {
	const getBalance = () => run({ resource: 'account', operation: 'getBalance' });

	it.each([
		[true, 'true'],
		[[42], 'a list of 1 item'],
		['0x1F', '"0x1F"'],
		['', '""'],
	])('a balance of %j is null with a note, not a number made up from it', async (raw, said) => {
		answers.set('/v1/balance', { balance: raw, currency: 'KES', conversion_rate: 1 });
		expect(await getBalance()).toEqual([
			{
				balance: null,
				currency: 'KES',
				convertedBalance: null,
				conversionRate: 1,
				notes: [`balance: the answer gave ${said}, not a number`],
			},
		]);
	});

	it('a balance as plain decimal text is that number, without a note', async () => {
		answers.set('/v1/balance', { balance: '1250.50', currency: 'KES' });
		expect(await getBalance()).toEqual([
			{ balance: 1250.5, currency: 'KES', convertedBalance: null, conversionRate: null },
		]);
	});
});

describe('Delivery Report > Get', () => {
	const id = 'fb21dd7c-8df5-4aac-895a-6fec8eb29e8d';
	const getReport = () => run({ resource: 'deliveryReport', operation: 'get', messageId: id });

	it('a time in milliseconds is the same date as in seconds, not the year 55840', async () => {
		answers.set(`/v1/delivery_reports/${id}`, {
			id,
			status: 'DELIVRD',
			reason: '',
			time: 1626390000000,
		});
		const [inMilliseconds] = await getReport();
		answers.set(`/v1/delivery_reports/${id}`, {
			id,
			status: 'DELIVRD',
			reason: '',
			time: 1626390000,
		});
		const [inSeconds] = await getReport();
		expect(inMilliseconds).toEqual({
			messageId: id,
			status: 'DELIVRD',
			outcome: 'delivered',
			reason: '',
			time: 1626390000000,
			updatedAt: '2021-07-15T23:00:00.000Z',
		});
		expect(inSeconds.updatedAt).toBe(inMilliseconds.updatedAt);
	});

	it('an id of null, a status that is not text and a time that is not one are null with notes', async () => {
		answers.set(`/v1/delivery_reports/${id}`, {
			id: null,
			status: { code: 'DELIVRD' },
			reason: 404,
			time: 'yesterday',
		});
		expect(await getReport()).toEqual([
			{
				messageId: null,
				status: null,
				outcome: 'unknown',
				reason: null,
				time: null,
				updatedAt: null,
				notes: [
					'id: the answer gave null, not an id',
					'reason: the answer gave 404, not text',
					'status: the answer gave an object, not text',
					'time: the answer gave "yesterday", not a time (unix seconds, unix milliseconds or an ISO date)',
				],
			},
		]);
	});
});

describe('listings keep every record, each odd field noted', () => {
	it('Sender Number > Get Many: a sender with odd fields is listed with its notes', async () => {
		answers.set('/v1/phone_number_ids', [
			{ id: 1, phone_number: '+254700000001', phone_number_id: '110000000000001' },
			{ id: '2', phone_number: 254700000002, phone_number_id: null, messaging_limit: '0x10' },
		]);
		expect(await run({ resource: 'senderNumber', operation: 'getAll' })).toEqual([
			{ id: 1, phone_number: '+254700000001', phone_number_id: '110000000000001' },
			{
				id: 2,
				phone_number: null,
				phone_number_id: null,
				messaging_limit: null,
				notes: [
					'phone_number: the answer gave 254700000002, not text',
					'phone_number_id: the answer gave null, not an id',
					'messaging_limit: the answer gave "0x10", not a whole number',
				],
			},
		]);
	});

	it('Group > Get Many: a group with an odd id or count is kept, not the whole page refused', async () => {
		answers.set('/v1/groups/fetch', {
			groups: [
				{ id: 1, name: 'Customers', total_contacts: 12 },
				{ id: true, name: 'Odd', total_contacts: [3] },
			],
			pagination: { next_page: null },
		});
		expect(await run({ resource: 'group', operation: 'getAll', returnAll: true })).toEqual([
			{ id: 1, name: 'Customers', total_contacts: 12 },
			{
				id: null,
				name: 'Odd',
				total_contacts: null,
				notes: [
					'id: the answer gave true, not an id (a whole number)',
					'total_contacts: the answer gave a list of 1 item, not a whole number',
				],
			},
		]);
	});
});

describe('records that need their id', () => {
	it('Template > Get Many of a sender the listing gave no usable id: an error naming id', async () => {
		answers.set('/v1/phone_number_ids', [
			{ id: 'one', phone_number: '+254700000001', phone_number_id: '110000000000001' },
		]);
		const { error } = await runWithError({
			resource: 'template',
			operation: 'getAll',
			senderNumber: { __rl: true, mode: 'id', value: '110000000000001' },
		});
		expect(error?.message).toMatch(/no usable record id/);
		expect(`${error?.message} ${error?.description ?? ''}`).toMatch(
			/id: the answer gave "one", not an id \(a whole number\)/,
		);
		expect(server.requests.some((request) => request.path.includes('/null'))).toBe(false);
	});

	it('Contact > Create: a created contact with odd fields keeps them null with a note', async () => {
		answers.set('/v1/contacts/create', { id: 12, phone_number: '+254711000999', name: 7 });
		expect(
			await run({ resource: 'contact', operation: 'create', phoneNumber: '+254711000999' }),
		).toEqual([
			{
				id: 12,
				phone_number: '+254711000999',
				name: null,
				notes: ['name: the answer gave 7, not text'],
			},
		]);
	});

	it('Contact > Create: an answer without a usable id is maybe created, never a contact of id null', async () => {
		for (const id of ['12a', null, '', undefined]) {
			answers.set('/v1/contacts/create', { id, phone_number: '+254711000999' });
			const { items, error } = await runWithError(
				{ resource: 'contact', operation: 'create', phoneNumber: '+254711000999' },
				true,
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({ mayHaveBeenSent: true });
			expect(String(items[0].json.error)).toMatch(/id: the answer gave .*nothing confirms/);
		}
	});
});

describe('Send Template with a template listed with odd fields', () => {
	it('is sent unchecked (the service decides), not refused as "not approved" because of a status of 1', async () => {
		answers.set('/v1/phone_number_ids', [{ id: 1, phone_number_id: '110000000000001' }]);
		answers.set('/v1/phone_number_ids/1/templates', [
			{ id: 'tpl_odd', name: 'odd', status: 1, message: 'Hello' },
		]);
		answers.set('/v1/whatsapp/send', { recipients: [{ id: 'wamid.ODD1', status: 'sent' }] });
		const before = server.requests.length;
		const items = await run({
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: { __rl: true, mode: 'id', value: '110000000000001' },
			template: { __rl: true, mode: 'id', value: 'tpl_odd' },
			destination: '+254700000001',
			variablesMode: 'define',
		});
		expect(items).toHaveLength(1);
		expect(items[0].messageId).toBe('wamid.ODD1');
		expect(server.requests.slice(before).map((request) => request.path)).toContain(
			'/v1/whatsapp/send',
		);
	});
});
