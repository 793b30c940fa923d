/**
 * Where an odd value in a read answer matters beyond its own field: an upload without a usable
 * media_id, a listing whose next page is not a page number, a sender or template without a usable
 * id. Each is an error naming the field, or the record is left out of what can be picked, never a
 * request to /phone_number_ids/null/templates or a listing that quietly stops early.
 */
import type { IncomingMessage, ServerResponse } from 'http';
import {
	SmsLeopardError,
	SmsLeopardResponseError,
	type SmsLeopardClient,
} from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import { type RecordingServer, startRecordingServer } from '../support/recording-server';
import { caught } from '../support/sandbox-client';

const answers = new Map<string, unknown>();
let server: RecordingServer;
let client: SmsLeopardClient;
let close: () => void;

beforeAll(async () => {
	server = await startRecordingServer((request: IncomingMessage, response: ServerResponse) => {
		const path = (request.url ?? '').split('?')[0];
		const query = new URL(request.url ?? '', 'http://x').searchParams.get('page');
		const key = answers.has(`${path}?page=${query}`) ? `${path}?page=${query}` : path;
		// Drain an upload's body before answering, as a real server does.
		request.resume();
		request.on('end', () => {
			response.writeHead(answers.has(key) ? 200 : 404, { 'content-type': 'application/json' });
			response.end(JSON.stringify(answers.get(key) ?? { message: 'not found' }));
		});
	});
	const made = createNodeClient({
		apiKey: 'odd-key',
		apiSecret: 'odd-secret-0123456789',
		chatUrl: server.url,
		contactsUrl: server.url,
		channel: 'whatsapp',
		retry: { maxRetries: 0 },
	});
	client = made.client;
	close = () => made.transport.close();
});
afterAll(async () => {
	close();
	await server.stop();
});
beforeEach(() => {
	answers.clear();
	server.requests.length = 0;
});

const upload = () =>
	client.uploadMedia({
		phoneNumberId: '110000000000001',
		file: { data: Buffer.alloc(64, 1), mimeType: 'image/png', fileName: 'a.png' },
	});

describe('Media > Upload', () => {
	// 9700000000000039 as a JSON number has already lost its last digit (it reads ...040).
	it.each([[undefined], [null], [''], ['  '], [true], [1.5], [{ id: 'x' }], [9700000000000039]])(
		'a media record whose media_id is %j is an error naming media_id, not a silent null',
		async (mediaId) => {
			answers.set('/v1/whatsapp/media', { id: 5, media_id: mediaId, media_type: 'image' });
			const error = await caught<SmsLeopardResponseError>(upload);
			expect(error).toBeInstanceOf(SmsLeopardResponseError);
			expect(error.issues[0].field).toBe('media_id');
			expect(error.message).toMatch(
				/media_id: the answer gave .*, not an id: the upload cannot be used/,
			);
		},
	);

	it('a numeric media_id is its digits; odd side fields are noted, the upload kept', async () => {
		answers.set('/v1/whatsapp/media', { id: '5', media_id: 970000000039, file_size: '1e9x' });
		expect(await upload()).toEqual({
			id: 5,
			media_id: '970000000039',
			file_size: null,
			notes: ['file_size: the answer gave "1e9x", not a whole number'],
		});
	});
});

describe('Group > Get Many paging', () => {
	it('a next_page that is not a page number stops the listing with an error, not quietly', async () => {
		answers.set('/v1/groups/fetch?page=1', {
			groups: [{ id: 1, name: 'A' }],
			pagination: { next_page: '2a', num_pages: 3 },
		});
		const error = await caught(() => client.getAllGroups());
		expect(error).toBeInstanceOf(SmsLeopardError);
		expect(error.message).toMatch(/next_page: the answer gave "2a", not a whole number/);
		expect(error.message).toMatch(/stopped with 1 groups read/);
	});

	it('groups without a usable id are each listed, and the listing still ends', async () => {
		answers.set('/v1/groups/fetch?page=1', {
			groups: [{ id: null, name: 'A' }, { id: null, name: 'B' }, { name: 'B2' }],
			pagination: { next_page: 2 },
		});
		answers.set('/v1/groups/fetch?page=2', {
			groups: [{ id: 3, name: 'C' }],
			pagination: { next_page: null },
		});
		const groups = await client.getAllGroups();
		expect(groups.map((group) => group.name)).toEqual(['A', 'B', 'B2', 'C']);
		expect(groups[0].notes).toEqual(['id: the answer gave null, not an id (a whole number)']);
	});
});

describe('senders and templates without usable ids', () => {
	it('a sender without a usable record id: its templates are not asked for at /null', async () => {
		answers.set('/v1/phone_number_ids', [{ id: null, phone_number_id: '110000000000001' }]);
		expect(await client.templateCatalog('110000000000001')).toBeUndefined();
		expect(server.requests.map((request) => request.path)).toEqual(['/v1/phone_number_ids']);
	});

	it('a sender whose phone_number_id is odd is never matched, nor listed as known', async () => {
		answers.set('/v1/phone_number_ids', [
			{ id: 1, phone_number_id: { value: '110000000000001' } },
			{ id: 2, phone_number_id: '110000000000002' },
		]);
		const error = await caught(() => client.findSenderNumber('110000000000001'));
		expect(error.message).toMatch(/known: 110000000000002\)/);
	});

	it('a template without a usable id is left out of the catalog a send is checked against', async () => {
		answers.set('/v1/phone_number_ids', [{ id: 1, phone_number_id: '110000000000001' }]);
		answers.set('/v1/phone_number_ids/1/templates', [
			{ id: null, name: 'nameless', status: 'APPROVED', message: 'Hi' },
			{ id: 'tpl_ok', name: 'ok', status: 'APPROVED', message: 'Hi {{1}}' },
		]);
		const catalog = await client.templateCatalog('110000000000001');
		expect([...(catalog?.keys() ?? [])]).toEqual(['tpl_ok']);
	});
});

describe('answers that are not the record asked for', () => {
	it.each([[[]], ['balance'], [42], [null], [{ currency: 'KES' }]])(
		'a balance answer of %j is a response error, not a balance of null',
		async (body) => {
			answers.set('/v1/balance', body);
			const error = await caught<SmsLeopardResponseError>(() => client.getBalance());
			expect(error).toBeInstanceOf(SmsLeopardResponseError);
			expect(error.message).toMatch(/(balance: is missing \(a number\)|not a record|not JSON)/);
		},
	);

	it('a balance of null is null with a note: the service said there is none', async () => {
		answers.set('/v1/balance', { balance: null, currency: 'KES' });
		expect(await client.getBalance()).toEqual({
			balance: null,
			currency: 'KES',
			notes: ['balance: the answer gave null, not a number'],
		});
	});
});
