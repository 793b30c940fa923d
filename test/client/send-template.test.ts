import {
	SmsLeopardBadRequestError,
	SmsLeopardNotFoundError,
	SmsLeopardValidationError,
	prepareTemplateMessage,
	withMediaId,
} from '../../nodes/SmsLeopard/client';
import { SENDERS, TEMPLATES } from '../sandbox';
import { type SandboxClient, caught, startSandboxClient } from '../support/sandbox-client';

const sender = SENDERS.primary.phone_number_id;
let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

function sendRequests() {
	return env.sandbox.requests.filter((request) => request.path.endsWith('/send'));
}

describe('sendTemplate against the sandbox', () => {
	it('sends body variables and returns the recipient with id, cost, number and status', async () => {
		const result = await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.bodyOnly.id,
			destination: '0712 345-678',
			variables: {
				body: [
					{ placeholder: 2, value: 'A-17' },
					{ placeholder: 1, value: 'Amina' },
				],
			},
		});
		expect(result.recipients).toHaveLength(1);
		const [recipient] = result.recipients;
		expect(recipient.id).toEqual(expect.any(String));
		expect(recipient.status).toBe('Success');
		expect(recipient.number).toBe('+254712345678');
		expect(typeof recipient.cost).toBe('number');
		expect(sendRequests()[0].body).toEqual({
			destination: '0712345678',
			template_id: TEMPLATES.bodyOnly.id,
			phone_number_id: sender,
			component_list: {
				components: [
					{
						component_type: 'BODY',
						fields: [
							{ name: '1', value: 'Amina' },
							{ name: '2', value: 'A-17' },
						],
					},
				],
			},
		});
	});

	it('gives every message its own id', async () => {
		const ids = new Set<string>();
		for (const destination of ['+254700100001', '254700100002', '+254700100003']) {
			const result = await env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: TEMPLATES.flow.id,
				destination,
			});
			ids.add(result.recipients[0].id ?? '');
		}
		expect(ids.size).toBe(3);
	});

	it('sends a text header variable, a URL button value and quick reply payloads', async () => {
		await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.textHeader.id,
			destination: '+254700100001',
			variables: {
				header: [{ placeholder: 1, value: 'Amina' }],
				body: [
					{ placeholder: 1, value: 'Amina' },
					{ placeholder: 2, value: 'Leopard Club' },
				],
			},
		});
		await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.urlButton.id,
			destination: '+254700100001',
			variables: {
				body: [{ placeholder: 1, value: 'PX-1' }],
				buttons: [{ kind: 'url', index: 0, value: 'PX-1' }],
			},
		});
		await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.quickReplies.id,
			destination: '+254700100001',
			variables: {
				body: [{ placeholder: 1, value: 'Amina' }],
				buttons: [
					{ kind: 'quickReply', index: 0, value: 'visit-yes' },
					{ kind: 'quickReply', index: 1, value: 'visit-no' },
				],
			},
		});
		expect(env.sandbox.state.sentMessages).toHaveLength(3);
		expect(sendRequests()[2].body).toMatchObject({
			component_list: {
				components: [
					{ component_type: 'BODY' },
					{
						component_type: 'BUTTONS',
						fields: [
							{ name: 'quick_reply:0', value: 'visit-yes' },
							{ name: 'quick_reply:1', value: 'visit-no' },
						],
					},
				],
			},
		});
	});

	it('sends an authentication code in BODY and in BUTTONS by placeholder number (rule 11)', async () => {
		const result = await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.authCode.id,
			destination: '+254700100001',
			variables: {
				body: [{ placeholder: 1, value: '493021' }],
				buttons: [{ kind: 'placeholder', placeholder: 1, value: '493021' }],
			},
		});
		expect(result.recipients[0].status).toBe('Success');
	});

	it('passes a raw component_list (JSON mode) with button name variants in canonical form', async () => {
		await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.quickReplies.id,
			destination: '+254700100001',
			componentList: JSON.stringify({
				components: [
					{ component_type: 'BODY', fields: [{ name: '1', value: 'Amina' }] },
					{ component_type: 'BUTTONS', fields: [{ name: 'quick-reply_1', value: 'no' }] },
				],
			}),
		});
		expect(sendRequests()[0].body).toMatchObject({
			component_list: {
				components: [
					{ component_type: 'BODY', fields: [{ name: '1', value: 'Amina' }] },
					{ component_type: 'BUTTONS', fields: [{ name: 'quick_reply:1', value: 'no' }] },
				],
			},
		});
	});

	it('sends a document header with media_id and file_name', async () => {
		const media = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: {
				data: Buffer.from('%PDF-1.4 invoice'),
				mimeType: 'application/pdf',
				fileName: 'inv.pdf',
			},
		});
		await env.client.sendTemplate({
			phoneNumberId: sender,
			templateId: TEMPLATES.documentHeader.id,
			destination: '+254700100001',
			variables: { body: [{ placeholder: 1, value: 'INV-9' }] },
			mediaId: media.media_id,
			fileName: 'Invoice INV-9.pdf',
		});
		expect(sendRequests()[0].body).toMatchObject({
			media_id: media.media_id,
			file_name: 'Invoice INV-9.pdf',
		});
	});

	it('refuses bad input before any request and names the field', async () => {
		const error = await caught<SmsLeopardValidationError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: TEMPLATES.bodyOnly.id,
				destination: '+2547 abc',
				variables: { body: [{ placeholder: 1, value: 'x' }] },
			}),
		);
		expect(error).toBeInstanceOf(SmsLeopardValidationError);
		expect(error.field).toBe('destination');
		expect(error.message).toMatch(/not a valid phone number/);
		const fileNameError = await caught<SmsLeopardValidationError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: TEMPLATES.bodyOnly.id,
				destination: '+254700100001',
				fileName: 'a.pdf',
			}),
		);
		expect(fileNameError.field).toBe('fileName');
		const injection = await caught<SmsLeopardValidationError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: 'tpl\r\nX-Evil: 1',
				destination: '+254700100001',
			}),
		);
		expect(injection.field).toBe('templateId');
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it("reports the service's refusals as typed errors with its code and message", async () => {
		const missing = await caught<SmsLeopardBadRequestError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: TEMPLATES.bodyOnly.id,
				destination: '+254700100001',
				variables: { body: [{ placeholder: 1, value: 'only one' }] },
			}),
		);
		expect(missing).toBeInstanceOf(SmsLeopardBadRequestError);
		expect(missing.status).toBe(400);
		expect(missing.message).toContain(`Send template '${TEMPLATES.bodyOnly.id}'`);
		expect(missing.message).toMatch(/\{\{2\}\}|2/);

		const pending = await caught<SmsLeopardBadRequestError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: TEMPLATES.pending.id,
				destination: '+254700100001',
			}),
		);
		expect(pending.code).toBe('template_not_approved');

		const recordId = await caught<SmsLeopardBadRequestError>(() =>
			env.client.sendTemplate({
				phoneNumberId: '1',
				templateId: TEMPLATES.flow.id,
				destination: '+254700100001',
			}),
		);
		expect(recordId.apiMessage).toContain(SENDERS.primary.phone_number_id);

		const unknown = await caught<SmsLeopardNotFoundError>(() =>
			env.client.sendTemplate({
				phoneNumberId: sender,
				templateId: 'tpl_nope',
				destination: '+254700100001',
			}),
		);
		expect(unknown).toBeInstanceOf(SmsLeopardNotFoundError);
		expect(env.sandbox.state.sentMessages).toHaveLength(0);
	});
});

describe('a prepared template message: built and checked once, sent as it is', () => {
	const documentSend = {
		phoneNumberId: sender,
		templateId: TEMPLATES.documentHeader.id,
		destination: '+254700100001',
		variables: { body: [{ placeholder: 1, value: 'INV-17' }] },
		fileName: 'invoice.pdf',
	};

	it('waits for the media_id of a header file still to upload, and sends nothing until it has it', async () => {
		const prepared = prepareTemplateMessage(documentSend, { mediaToUpload: true });
		expect(prepared.awaitsMediaId).toBe(true);
		expect(prepared.body.media_id).toBeUndefined();
		const refused = await caught<SmsLeopardValidationError>(() =>
			env.client.sendPreparedTemplate(prepared),
		);
		expect(refused.issues).toEqual([expect.objectContaining({ field: 'mediaId' })]);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('sends exactly the prepared body, with the uploaded media_id in it', async () => {
		const media = await env.client.uploadMedia({
			phoneNumberId: sender,
			file: {
				data: Buffer.from('%PDF-1.4 x'),
				fileName: 'invoice.pdf',
				mimeType: 'application/pdf',
			},
		});
		const prepared = withMediaId(
			prepareTemplateMessage(documentSend, { mediaToUpload: true }),
			media.media_id,
		);
		await env.client.sendPreparedTemplate(prepared);
		expect(sendRequests()).toHaveLength(1);
		expect(sendRequests()[0].body).toEqual(prepared.body);
		expect(prepared.body).toMatchObject({ media_id: media.media_id, file_name: 'invoice.pdf' });
	});

	it('refuses a file name without media unless a header file is still to upload', () => {
		expect(() => prepareTemplateMessage(documentSend)).toThrow(/fileName.*media/s);
		expect(() =>
			withMediaId(prepareTemplateMessage(documentSend, { mediaToUpload: true }), 'a b'),
		).toThrow(SmsLeopardValidationError);
	});
});
