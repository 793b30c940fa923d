import { SENDERS, TEMPLATES } from '../sandbox';
import { binaryItem, useBinaryDataMode } from '../harness';
import {
	type NodeEnv,
	jsonItems,
	senderLocator,
	templateLocator,
	hintsOf,
	useNodeEnv,
	binaryHeaderSendParameters,
	mediaUploadParameters,
} from './support';

const env = useNodeEnv();

const pdf = Buffer.from('%PDF-1.4\n' + 'brochure '.repeat(2000));
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(4096, 7)]);

const sendWithBinary = binaryHeaderSendParameters;

/**
 * Where a binary field's file is (docs/n8n-3.md):
 * - stored, read by its id: `filesystem` mode, n8n's default since 2.0 and kept by 3.0. `database`
 *   and `s3` are read the same way, by id, but n8n-core alone cannot store in `database` mode (its
 *   manager is in the `n8n` package, on n8n's database: test/harness/binary-data.test.ts shows what
 *   n8n-core does without it), so real `database` mode runs in the queue suite, and
 *   database-binary.test.ts runs it on a stand-in for n8n's manager;
 * - inline, base64 in the item: n8n 1.x's default in-memory mode (`default`; 2.x still honours it
 *   when set, 3.0 removes it) and, in every version and mode, the binary a Code node builds
 *   (measured on n8n 1.123.81, 2.8.4 and 2.41.1 with `n8n execute`).
 * Every case runs on a stored file; the cases whose path differs for inline data run inline too.
 */
const STORED_AND_INLINE = [
	['filesystem', 'a stored file, read by id'],
	['default', "inline: n8n 1.x's in-memory mode, a Code node's binary in any version"],
] as const;

describe.each(STORED_AND_INLINE)('header media from a binary field (%s: %s)', (mode) => {
	beforeAll(async () => await useBinaryDataMode(mode));

	it('uploads one file once for many recipients, then sends each with its media id', async () => {
		const items = await Promise.all(
			['+254700300001', '+254700300002', '+254700300003'].map(
				async (phone) =>
					await binaryItem(
						{ phone, invoice: `INV-${phone.slice(-1)}` },
						'brochure',
						pdf,
						'brochure.pdf',
						'application/pdf',
					),
			),
		);
		const { items: output, error } = await env.run(
			sendWithBinary(TEMPLATES.documentHeader.id, {
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: '={{ $json.invoice }}', document_file_name: 'Your invoice.pdf' },
				},
			}),
			items,
		);
		expect(error).toBeUndefined();
		expect(output).toHaveLength(3);
		const uploads = env.sandbox.requests.filter((request) => request.path.endsWith('/media'));
		expect(uploads).toHaveLength(1);
		expect(uploads[0].body).toMatchObject({
			file: { size: pdf.length, mimeType: 'application/pdf' },
		});
		const mediaId = env.sandbox.state.media[0].media_id;
		expect(env.sends().map((send) => send.media_id)).toEqual([mediaId, mediaId, mediaId]);
		expect(env.sends()[0]).toMatchObject({ file_name: 'Your invoice.pdf' });
		// Flat rows: the upload's answer is not repeated in a nested column.
		expect(output[0].json).toMatchObject({ mediaId, recipient: '+254700300001' });
		expect(output[0].json.media).toBeUndefined();
	});
});

// Checks and mapping that do not depend on where the file is: on a stored file only.
describe('header media from a binary field: checks and mapping (filesystem mode)', () => {
	beforeAll(async () => await useBinaryDataMode('filesystem'));

	it('refuses an image for a document header before uploading anything (rule 8)', async () => {
		const item = await binaryItem(
			{ phone: '+254700300001' },
			'brochure',
			png,
			'banner.png',
			'image/png',
		);
		const { error } = await env.run(
			sendWithBinary(TEMPLATES.documentHeader.id, {
				templateFields: { mappingMode: 'defineBelow', value: { body_1: 'INV-1' } },
			}),
			[item],
		);
		expect(error?.message).toContain(
			'"Header Media" is image media but template "invoice" has a document header',
		);
		expect(env.sandbox.requests.filter((request) => request.path.endsWith('/media'))).toHaveLength(
			0,
		);
		expect(env.sends()).toHaveLength(0);
	});

	it('sends an image header with quick reply and URL button values mapped from the template', async () => {
		const item = await binaryItem(
			{ phone: '+254700300001', name: 'Amina' },
			'brochure',
			png,
			'banner.png',
			'image/png',
		);
		const { error } = await env.run(
			sendWithBinary(TEMPLATES.mixedButtons.id, {
				templateFields: {
					mappingMode: 'defineBelow',
					value: {
						body_1: '={{ $json.name }}',
						body_2: '20%',
						button_0_payload: '=stop-{{ $json.name }}',
						button_1_url: 'SPRING',
					},
				},
			}),
			[item],
		);
		expect(error).toBeUndefined();
		expect(env.sends()[0]).toMatchObject({
			media_id: env.sandbox.state.media[0].media_id,
			component_list: {
				components: [
					{
						component_type: 'BODY',
						fields: [
							{ name: '1', value: 'Amina' },
							{ name: '2', value: '20%' },
						],
					},
					{
						component_type: 'BUTTONS',
						fields: expect.arrayContaining([
							{ name: 'quick_reply:0', value: 'stop-Amina' },
							{ name: 'url:1', value: 'SPRING' },
						]),
					},
				],
			},
		});
	});
});

describe('header media from a media ID', () => {
	it('knows the type of a media ID carried by the item (the output of Media > Upload): refuses a mismatch before sending', async () => {
		const { error } = await env.run(
			{
				resource: 'message',
				operation: 'sendTemplate',
				senderNumber: senderLocator,
				template: templateLocator(TEMPLATES.documentHeader.id),
				destination: '+254700300001',
				variablesMode: 'template',
				templateFields: { mappingMode: 'defineBelow', value: { body_1: 'INV-1' } },
				headerMedia: 'mediaId',
				mediaId: '={{ $json.media_id }}',
			},
			[{ json: { media_id: '9700000000000001', media_type: 'image', file_name: 'banner.png' } }],
		);
		expect(error?.message).toContain(
			'"Header Media" is image media but template "invoice" has a document header',
		);
		expect(env.sends()).toHaveLength(0);
	});
});

describe('Header Media left set for a template without a media header', () => {
	const textTemplateWith = (media: Record<string, unknown>) => ({
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: senderLocator,
		template: templateLocator(TEMPLATES.bodyOnly.id),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: { mappingMode: 'defineBelow', value: { body_1: 'Amina', body_2: 'A-1' } },
		...media,
	});
	const headerMediaHints = (run: Awaited<ReturnType<NodeEnv['run']>>['run']) =>
		hintsOf(run).filter((message) => message.startsWith('Header Media'));

	it.each([
		['a media ID', { headerMedia: 'mediaId', mediaId: '9700000000000001' }],
		['a binary field the items do not have', { headerMedia: 'binary', binaryPropertyName: 'gone' }],
	])(
		'%s is ignored, the send goes out without media, and the output says so once',
		async (_, media) => {
			const { items, error, run } = await env.run(
				textTemplateWith(media),
				jsonItems({ phone: '+254700300001' }, { phone: '+254700300002' }),
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
			expect(env.sends().map((send) => send.media_id)).toEqual([undefined, undefined]);
			expect(
				env.sandbox.requests.filter((request) => request.path.endsWith('/media')),
			).toHaveLength(0);
			expect(headerMediaHints(run)).toEqual([
				'Header Media was ignored: template "order_update" has no document, image or video header. Set Header Media to None to remove this notice.',
			]);
		},
	);

	it('Header Media None gives no notice', async () => {
		const { error, run } = await env.run(
			textTemplateWith({ headerMedia: 'none' }),
			jsonItems({ phone: '+254700300001' }),
		);
		expect(error).toBeUndefined();
		expect(headerMediaHints(run)).toEqual([]);
	});
});

describe('Media > Upload', () => {
	const upload = mediaUploadParameters;

	// Inline first: the cases below run in the mode left set, a stored file.
	it.each([...STORED_AND_INLINE].reverse())(
		'uploads a file from binary data (%s: %s) and outputs the media record',
		async (mode) => {
			await useBinaryDataMode(mode);
			const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
			const { items, error } = await env.run(
				upload({ options: { fileName: 'Catalogue 2026.pdf' } }),
				[item],
			);
			expect(error).toBeUndefined();
			expect(items[0].json).toMatchObject({
				media_id: expect.any(String),
				media_type: 'document',
				mime_type: 'application/pdf',
				file_name: 'Catalogue 2026.pdf',
				file_size: pdf.length,
			});
			expect(items[0].pairedItem).toEqual({ item: 0 });
		},
	);

	it('names the missing binary field', async () => {
		const { error } = await env.run(upload({ binaryPropertyName: 'nothere' }), [{ json: {} }]);
		expect(error?.message).toMatch(/binary/i);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('names a sender record id given for its phone_number_id before a byte of the file is sent', async () => {
		const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
		const { error } = await env.run(
			upload({ senderNumber: { __rl: true, mode: 'id', value: String(SENDERS.primary.id) } }),
			[item],
		);
		expect(error?.message).toBe(
			`Invalid input in item 1: "Sender Number" "${SENDERS.primary.id}" is the record ID of sender ${SENDERS.primary.phone_number}, not its phone_number_id: use ${SENDERS.primary.phone_number_id} (or pick the number from the list)`,
		);
		expect(env.sandbox.requests.filter((request) => request.path.endsWith('/media'))).toEqual([]);
	});

	it('an account without the sender listing uploads unchecked: the service has the last word', async () => {
		env.sandbox.setOptions({ noSenderListing: true });
		const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
		const { items, error } = await env.run(upload(), [item]);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ media_id: expect.any(String) });
	});

	it('refuses a media type that contradicts the file, naming the option', async () => {
		const item = await binaryItem({}, 'data', png, 'banner.png', 'image/png');
		const { error } = await env.run(upload({ options: { type: 'video' } }), [item]);
		expect(error?.message).toContain('"Media Type" is "video" but the file is image/png');
		expect(env.sandbox.requests).toHaveLength(0);
	});
});
