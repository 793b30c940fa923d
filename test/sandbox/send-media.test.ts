import { startSandbox, SENDERS, TEMPLATES, type Sandbox } from './index';
import { body, send, sendPayload, uploadMedia } from './test-helpers';

let sb: Sandbox;
const media: Record<'pdf' | 'png' | 'mp4' | 'pngOfSender2', string> = {
	pdf: '',
	png: '',
	mp4: '',
	pngOfSender2: '',
};
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(async () => {
	sb.reset();
	media.pdf = (await uploadMedia(sb, 'application/pdf', 'invoice-17.pdf')).media_id;
	media.png = (await uploadMedia(sb, 'image/png', 'arrivals.png')).media_id;
	media.mp4 = (await uploadMedia(sb, 'video/mp4', 'how.mp4')).media_id;
	media.pngOfSender2 = (
		await uploadMedia(sb, 'image/png', 'other.png', [], SENDERS.secondary.phone_number_id)
	).media_id;
});

const invoice = (extra: Record<string, unknown>) =>
	sendPayload(TEMPLATES.documentHeader.id, [body(['1', 'INV-17'])], extra);
const arrivals = (extra: Record<string, unknown>) =>
	sendPayload(TEMPLATES.imageHeader.id, [body(['1', 'Ann'])], extra);
const video = (extra: Record<string, unknown>) =>
	sendPayload(TEMPLATES.videoHeader.id, [body(['1', 'the app'])], extra);

describe('send with media headers (rules 8 and 9)', () => {
	it('accepts matching media for document, image and video headers', async () => {
		expect((await send(sb, invoice({ media_id: media.pdf }))).status).toBe(200);
		expect((await send(sb, arrivals({ media_id: media.png }))).status).toBe(200);
		expect((await send(sb, video({ media_id: media.mp4 }))).status).toBe(200);
		expect(sb.state.sentMessages.map((m) => m.mediaId)).toEqual([media.pdf, media.png, media.mp4]);
	});

	it('uses the upload filename for documents unless file_name is given', async () => {
		await send(sb, invoice({ media_id: media.pdf }));
		await send(sb, invoice({ media_id: media.pdf, file_name: 'Invoice March.pdf' }));
		expect(sb.state.sentMessages.map((m) => m.fileName)).toEqual([
			'invoice-17.pdf',
			'Invoice March.pdf',
		]);
	});

	it.each([
		['document', () => invoice({})],
		['image', () => arrivals({})],
		['video', () => video({})],
	])('requires media_id for a %s header', async (type, payload) => {
		const res = await send(sb, payload());
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('media_required');
		expect(res.body.error_message).toContain(`${type} upload`);
	});

	it('refuses an unknown media_id with 404', async () => {
		const res = await send(sb, invoice({ media_id: '123456789' }));
		expect(res.status).toBe(404);
		expect(res.body.error_code).toBe('not_found');
	});

	it('refuses a media id that did not survive reset', async () => {
		const old = media.pdf;
		sb.reset();
		expect((await send(sb, invoice({ media_id: old }))).status).toBe(404);
	});

	it.each([
		['image header with document media', () => arrivals({ media_id: media.pdf }), 'image'],
		['document header with image media', () => invoice({ media_id: media.png }), 'document'],
		['video header with image media', () => video({ media_id: media.png }), 'video'],
	])('refuses %s', async (_label, payload, needed) => {
		const res = await send(sb, payload());
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('media_type_mismatch');
		expect(res.body.error_message).toContain(`needs ${needed} media`);
	});

	it('refuses media uploaded for another sender number', async () => {
		const res = await send(sb, arrivals({ media_id: media.pngOfSender2 }));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('media_sender_mismatch');
	});

	it('refuses media_id on a template without a media header', async () => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'], ['2', 'b'])], { media_id: media.png }),
		);
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('remove media_id');
	});

	it('refuses file_name outside document templates (rule 9)', async () => {
		const res = await send(sb, arrivals({ media_id: media.png, file_name: 'x.png' }));
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('document templates only');
		const plain = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [body(['1', 'a'], ['2', 'b'])], { file_name: 'x.pdf' }),
		);
		expect(plain.status).toBe(400);
	});

	it('media ids are strings beyond 2^53, so a numeric copy of one is not found', async () => {
		expect(typeof media.pdf).toBe('string');
		const mangled = String(Number(media.pdf));
		expect(mangled).not.toBe(media.pdf);
		expect((await send(sb, invoice({ media_id: mangled }))).status).toBe(404);
		expect((await send(sb, invoice({ media_id: Number(media.pdf) }))).status).toBe(400);
	});
});
