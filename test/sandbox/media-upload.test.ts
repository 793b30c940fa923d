import { startSandbox, SENDERS, type Sandbox } from './index';
import { AUTH, PNID, call, streamMultipart, type StreamPart } from './test-helpers';
import { collectGarbage } from '../support/collect-garbage';

let sb: Sandbox;
let url: string;
beforeAll(async () => {
	sb = await startSandbox();
	url = `${sb.chatUrl}/v1/whatsapp/media`;
});
afterAll(() => sb.stop());
beforeEach(() => sb.reset());

const MB = 1024 * 1024;
const phone = (value = PNID): StreamPart => ({ name: 'phone_number_id', value });
const file = (contentType: string | undefined, size = 2048, fileName = 'f.bin'): StreamPart => ({
	name: 'file',
	file: { fileName, contentType, size },
});

describe('media upload: accepted', () => {
	it.each([
		['application/pdf', 'document'],
		['text/plain', 'document'],
		['application/msword', 'document'],
		['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document'],
		['application/vnd.ms-excel', 'document'],
		['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'document'],
		['application/vnd.ms-powerpoint', 'document'],
		['application/vnd.openxmlformats-officedocument.presentationml.presentation', 'document'],
		['application/vnd.oasis.opendocument.text', 'document'],
		['application/vnd.oasis.opendocument.spreadsheet', 'document'],
		['application/vnd.oasis.opendocument.presentation', 'document'],
		['image/jpeg', 'image'],
		['image/png', 'image'],
		['video/mp4', 'video'],
		['video/3gpp', 'video'],
	])('%s as %s', async (mime, category) => {
		const res = await streamMultipart(url, [phone(), file(mime, 3000, 'upload.x')]);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			id: 1,
			phone_number_id: PNID,
			media_id: expect.stringMatching(/^\d{16,}$/),
			media_type: category,
			mime_type: mime,
			file_name: 'upload.x',
			file_size: 3000,
		});
		expect(sb.state.media).toEqual([res.body]);
	});

	it('takes file_name and a matching type part, in any part order', async () => {
		const res = await streamMultipart(url, [
			file('application/pdf', 10, 'scan0001.pdf'),
			{ name: 'type', value: 'document' },
			{ name: 'file_name', value: 'Invoice 17.pdf' },
			phone(),
		]);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ file_name: 'Invoice 17.pdf', media_type: 'document', id: 1 });
	});

	it('works with a standard FormData body and numbers records incrementally', async () => {
		const upload = async () => {
			const form = new FormData();
			form.append('phone_number_id', PNID);
			form.append('file', new Blob([Buffer.alloc(500)], { type: 'image/jpeg' }), 'photo.jpg');
			return call(url, { method: 'POST', body: form as never });
		};
		const a = await upload();
		const b = await upload();
		expect([a.status, b.status]).toEqual([200, 200]);
		expect([a.body.id, b.body.id]).toEqual([1, 2]);
		expect(a.body.media_id).not.toBe(b.body.media_id);
		expect(a.body.file_size).toBe(500);
	});

	it('accepts exactly 5 MB for an image', async () => {
		const res = await streamMultipart(url, [phone(), file('image/png', 5 * MB, 'big.png')]);
		expect(res.status).toBe(200);
		expect(res.body.file_size).toBe(5 * MB);
	});

	it('reads a file part without Content-Type as text/plain (RFC 7578 default): a document', async () => {
		const res = await streamMultipart(url, [phone(), file(undefined, 10, 'notes.txt')]);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ mime_type: 'text/plain', media_type: 'document' });
	});

	it('records only metadata of the request', async () => {
		await streamMultipart(url, [phone(), file('image/png', 1234, 'a.png')]);
		expect(sb.requests[0].body).toEqual({
			fields: { phone_number_id: PNID },
			file: { fieldName: 'file', fileName: 'a.png', mimeType: 'image/png', size: 1234 },
		});
	});
});

describe('media upload: refused', () => {
	it.each([['image/gif'], ['audio/mpeg'], ['application/zip'], ['application/octet-stream']])(
		'MIME %s -> 400 unsupported_media_type',
		async (mime) => {
			const res = await streamMultipart(url, [phone(), file(mime)]);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				error_code: 'unsupported_media_type',
				error_message: expect.stringContaining('not supported'),
				status_code: 400,
			});
			expect(sb.state.media).toHaveLength(0);
		},
	);

	it.each([
		['image/png', 6 * MB, '5 MB'],
		['image/jpeg', 5 * MB + 1, '5 MB'],
		['video/mp4', 17 * MB, '16 MB'],
	])('%s of %d bytes -> 413 file_too_large', async (mime, size, limit) => {
		const res = await streamMultipart(url, [phone(), file(mime, size)]);
		expect(res.status).toBe(413);
		expect(res.body.error_code).toBe('file_too_large');
		expect(res.body.error_message).toContain(limit);
		expect(res.body.status_code).toBe(413);
	});

	it('413 reaches a fetch/FormData client intact', async () => {
		const form = new FormData();
		form.append('phone_number_id', PNID);
		form.append('file', new Blob([Buffer.alloc(6 * MB)], { type: 'image/png' }), 'huge.png');
		const res = await call(url, { method: 'POST', body: form as never });
		expect(res.status).toBe(413);
		expect(res.body.error_code).toBe('file_too_large');
	});

	it('type contradicting the MIME category -> 400 media_type_mismatch', async () => {
		const res = await streamMultipart(url, [
			phone(),
			file('application/pdf'),
			{ name: 'type', value: 'image' },
		]);
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('media_type_mismatch');
		expect(res.body.error_message).toContain("'document'");
	});

	it('type outside document|image|video -> 400', async () => {
		const res = await streamMultipart(url, [
			phone(),
			file('image/png'),
			{ name: 'type', value: 'IMAGE' },
		]);
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_format');
	});

	it('missing phone_number_id, missing file, empty file', async () => {
		const noPhone = await streamMultipart(url, [file('image/png')]);
		expect(noPhone.status).toBe(400);
		expect(noPhone.body.error_message).toContain('phone_number_id');
		const noFile = await streamMultipart(url, [phone()]);
		expect(noFile.status).toBe(400);
		expect(noFile.body.error_message).toContain("'file' is required");
		const empty = await streamMultipart(url, [phone(), file('image/png', 0)]);
		expect(empty.status).toBe(400);
		expect(empty.body.error_code).toBe('empty_file');
	});

	it('a record id as phone_number_id -> 404 naming the right value', async () => {
		const res = await streamMultipart(url, [phone('2'), file('image/png')]);
		expect(res.status).toBe(404);
		expect(res.body.error_message).toContain(`'${SENDERS.secondary.phone_number_id}'`);
	});

	it('file sent as a plain field, under another name, or twice', async () => {
		const plain = await streamMultipart(url, [phone(), { name: 'file', value: 'abc' }]);
		expect(plain.status).toBe(400);
		expect(plain.body.error_message).toContain('plain field');
		const renamed = await streamMultipart(url, [
			phone(),
			{ name: 'document', file: { fileName: 'a.pdf', contentType: 'application/pdf', size: 9 } },
		]);
		expect(renamed.status).toBe(400);
		expect(renamed.body.error_message).toContain("'document'");
		const twice = await streamMultipart(url, [phone(), file('image/png'), file('image/png')]);
		expect(twice.status).toBe(400);
	});

	it('not multipart, or multipart without boundary -> 400', async () => {
		const json = await call(url, { json: { phone_number_id: PNID } });
		expect(json.status).toBe(400);
		expect(json.body.error_message).toContain('multipart/form-data');
		const noBoundary = await fetch(url, {
			method: 'POST',
			headers: { authorization: AUTH, 'content-type': 'multipart/form-data' },
			body: 'x',
		});
		expect(noBoundary.status).toBe(400);
	});
});

describe('media upload: streaming', () => {
	// Counts what is still referenced, not what the collector has yet to free: a peak of
	// process.memoryUsage() sampled during the upload swung with GC timing under a busy CI.
	const liveBytes = () => {
		collectGarbage();
		return process.memoryUsage().arrayBuffers;
	};

	it('streams a 100 MB pdf through without holding it: under 16 MB live halfway and after', async () => {
		const before = liveBytes();
		let halfway = Number.NaN;
		const res = await streamMultipart(
			url,
			[phone(), file('application/pdf', 100 * MB, 'big.pdf')],
			undefined,
			{
				afterFileBytes: 60 * MB,
				hold: async () => {
					// Let the sandbox read what the sockets still hold; a sandbox keeping the file
					// would now hold at least the 50 MB beyond any socket buffer.
					await new Promise((resolve) => setTimeout(resolve, 200));
					halfway = liveBytes() - before;
				},
			},
		);
		expect(res.status).toBe(200);
		expect(res.body.file_size).toBe(100 * MB);
		expect(res.body.media_type).toBe('document');
		expect(halfway).toBeLessThan(16 * MB);
		expect(liveBytes() - before).toBeLessThan(16 * MB);
	}, 60_000);

	it('answers 401 and injected 500 cleanly while a large upload is still arriving', async () => {
		const parts = [phone(), file('video/mp4', 12 * MB, 'clip.mp4')];
		const denied = await streamMultipart(url, parts, { authorization: 'Basic Zm9vOmJhcg==' });
		expect(denied.status).toBe(401);
		expect(denied.body.error_code).toBe('unauthorized');
		sb.setOptions({ failureRate: 1 });
		const failed = await streamMultipart(url, parts);
		expect(failed.status).toBe(500);
		expect(sb.state.media).toHaveLength(0);
		sb.setOptions({ failureRate: 0 });
		expect((await streamMultipart(url, parts)).body.file_size).toBe(12 * MB);
	});

	it('refuses a document one byte over 100 MB with 413', async () => {
		const res = await streamMultipart(url, [
			phone(),
			file('application/pdf', 100 * MB + 1, 'big.pdf'),
		]);
		expect(res.status).toBe(413);
		expect(res.body.error_message).toContain('100 MB');
	}, 60_000);
});
