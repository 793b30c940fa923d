/**
 * n8n's database binary mode, where every read of a stored file loads all of it (see the harness's
 * stand-in for n8n's DatabaseManager, test/harness/binary-data.ts): the node reads such a file
 * once, hashes and uploads that one copy. Streaming it twice, as in filesystem mode, loaded a
 * 100 MB file twice and raised a queue-mode worker's memory by about 130 MB more
 * (`npm run bench -- uploadQueue`).
 */
import { TEMPLATES } from '../sandbox';
import { binaryItem, databaseFileReads, useBinaryDataMode } from '../harness';
import { binaryHeaderSendParameters, mediaUploadParameters, useNodeEnv } from './support';

const env = useNodeEnv();

const pdf = Buffer.from('%PDF-1.4\n' + 'catalogue '.repeat(3000));

beforeEach(async () => await useBinaryDataMode('database'));
afterAll(async () => await useBinaryDataMode('filesystem'));

describe('a stored file in database binary mode', () => {
	it('is stored by the database manager, as n8n stores it there', async () => {
		const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
		expect(item.binary?.data.id).toMatch(/^database:/);
	});

	it('Media > Upload reads it once and uploads all of it', async () => {
		const item = await binaryItem({}, 'data', pdf, 'catalogue.pdf', 'application/pdf');
		const before = databaseFileReads();
		const { items, error } = await env.run(mediaUploadParameters(), [item]);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ file_size: pdf.length, mime_type: 'application/pdf' });
		expect(databaseFileReads() - before).toBe(1);
	});

	it('Send Template: three recipients carrying one file, one read, one upload, one media id', async () => {
		const first = await binaryItem(
			{ phone: '+254700300001' },
			'brochure',
			pdf,
			'brochure.pdf',
			'application/pdf',
		);
		// As a Code node or a webhook hands one file on to every item: the same stored id.
		const items = ['+254700300001', '+254700300002', '+254700300003'].map((phone) => ({
			json: { phone },
			binary: first.binary,
		}));
		const before = databaseFileReads();
		const { error } = await env.run(
			binaryHeaderSendParameters(TEMPLATES.documentHeader.id, {
				templateFields: { mappingMode: 'defineBelow', value: { body_1: 'INV-1' } },
			}),
			items,
		);
		expect(error).toBeUndefined();
		const uploads = env.sandbox.requests.filter((request) => request.path.endsWith('/media'));
		expect(uploads).toHaveLength(1);
		expect(uploads[0].body).toMatchObject({ file: { size: pdf.length } });
		const mediaId = env.sandbox.state.media[0].media_id;
		expect(env.sends().map((send) => send.media_id)).toEqual([mediaId, mediaId, mediaId]);
		expect(databaseFileReads() - before).toBe(1);
	});
});
