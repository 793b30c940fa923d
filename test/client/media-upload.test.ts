import { Readable } from 'stream';
import { SmsLeopardValidationError } from '../../nodes/SmsLeopard/client';
import { SENDERS } from '../sandbox';
import { type SandboxClient, caught, startSandboxClient } from '../support/sandbox-client';

const sender = SENDERS.primary.phone_number_id;
const MB = 1024 * 1024;
let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

/** A stream of `size` bytes made chunk by chunk, so the test itself never holds the file. */
function generatedFile(size: number, chunkSize = 64 * 1024): Readable {
	let remaining = size;
	const chunk = Buffer.alloc(chunkSize, 0x41);
	return new Readable({
		read() {
			if (remaining <= 0) {
				this.push(null);
				return;
			}
			const length = Math.min(chunkSize, remaining);
			remaining -= length;
			this.push(length === chunkSize ? chunk : chunk.subarray(0, length));
		},
	});
}

describe('uploadMedia against the sandbox', () => {
	it('uploads an image from a buffer and infers its type from the MIME type', async () => {
		const record = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: { data: Buffer.alloc(2048, 1), mimeType: 'image/png', fileName: 'banner.png' },
		});
		expect(record).toMatchObject({
			phone_number_id: sender,
			media_type: 'image',
			mime_type: 'image/png',
			file_name: 'banner.png',
			file_size: 2048,
		});
		expect(record.media_id).toEqual(expect.any(String));
		const upload = env.sandbox.requests[0];
		expect(upload.body).toMatchObject({
			fields: { phone_number_id: sender, type: 'image', file_name: 'banner.png' },
			file: { fileName: 'banner.png', mimeType: 'image/png', size: 2048 },
		});
	});

	it('streams a video and honours a display file name', async () => {
		const record = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: {
				open: () => generatedFile(3 * MB),
				length: 3 * MB,
				mimeType: 'video/mp4',
				fileName: 'clip.mp4',
			},
			fileName: 'Product tour.mp4',
		});
		expect(record).toMatchObject({
			media_type: 'video',
			file_size: 3 * MB,
			file_name: 'Product tour.mp4',
		});
	});

	it('streams a 100 MB document through (the largest the service allows)', async () => {
		const size = 100 * MB;
		const record = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: {
				open: () => generatedFile(size, 1024 * 1024),
				length: size,
				mimeType: 'application/pdf',
				fileName: 'catalogue.pdf',
			},
		});
		expect(record).toMatchObject({ media_type: 'document', file_size: size });
	}, 120_000);

	it.each([
		[{ mimeType: 'image/gif', size: 10 }, 'file.mimeType', /"image\/gif" cannot be uploaded/],
		[{ mimeType: 'image/jpeg', size: 5 * MB + 1 }, 'file', /over the 5 MB limit for image media/],
		[{ mimeType: 'video/3gpp', size: 16 * MB + 1 }, 'file', /over the 16 MB limit for video media/],
		[
			{ mimeType: 'application/pdf', size: 100 * MB + 1 },
			'file',
			/over the 100 MB limit for document/,
		],
		[{ mimeType: 'text/plain', size: 0 }, 'file', /is empty/],
	])('refuses %j before a byte is sent', async ({ mimeType, size }, field, message) => {
		let opened = false;
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.uploadMedia({
				phoneNumberId: sender,
				file: {
					open: () => {
						opened = true;
						return generatedFile(size);
					},
					length: size,
					mimeType,
					fileName: 'x',
				},
			}),
		);
		expect(error).toBeInstanceOf(SmsLeopardValidationError);
		expect(error.field).toBe(field);
		expect(error.message).toMatch(message);
		expect(opened).toBe(false);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('refuses a media type that contradicts the MIME type', async () => {
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.uploadMedia({
				phoneNumberId: sender,
				type: 'image',
				file: { data: Buffer.from('%PDF'), mimeType: 'application/pdf', fileName: 'a.pdf' },
			}),
		);
		expect(error.field).toBe('type');
		expect(error.message).toContain('set type to "document"');
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('accepts MIME type parameters and case (text/plain; charset=utf-8)', async () => {
		const record = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: {
				data: Buffer.from('hello'),
				mimeType: 'Text/Plain; charset=utf-8',
				fileName: 'note.txt',
			},
		});
		expect(record).toMatchObject({ media_type: 'document', mime_type: 'text/plain' });
	});

	it('keeps a file name with line breaks from forging multipart headers', async () => {
		const record = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: { data: Buffer.from('x'), mimeType: 'text/plain', fileName: 'ok.txt' },
			fileName: 'ok.txt',
		});
		expect(record.file_name).toBe('ok.txt');
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.uploadMedia({
				phoneNumberId: sender,
				file: {
					data: Buffer.from('x'),
					mimeType: 'text/plain',
					fileName: 'a.txt\r\nContent-Type: image/png',
				},
			}),
		);
		expect(error.field).toBe('file.fileName');
	});
});
