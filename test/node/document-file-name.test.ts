/**
 * A document's file name (issue 51): from node version 1.3 it is a field of Values to Send, offered
 * only for templates with a document header, its id tagged with the template so a switch drops it.
 * Workflows saved by 1.2 keep Document File Name and send exactly as before. Run in n8n-core's
 * engine against the sandbox.
 */
import { TEMPLATES } from '../sandbox';
import { SAVED_MEDIA } from '../fixtures/template-fields/saved-nodes';
import { parseFieldId } from '../../nodes/SmsLeopard/actions/message/field-ids';
import { DOCUMENT_FILE_NAME_LABEL } from '../../nodes/SmsLeopard/actions/message/template-fields';
import { changingRequests, jsonItems, templateSendParameters, useNodeEnv } from './support';

const env = useNodeEnv();

beforeEach(() => env.sandbox.state.media.push(...SAVED_MEDIA));

const [invoicePdf, bannerPng] = SAVED_MEDIA;
const customer = { phone: '+254700600001', name: 'Amina' };

/** Values to Send as the editor of `typeVersion` saves them for `templateId`, by what each fills. */
async function mapped(templateId: string, values: Record<string, string>, typeVersion = 1.3) {
	const { fields } = await env.resourceMapping(
		'getTemplateFields',
		templateSendParameters(templateId),
		typeVersion,
	);
	const value = Object.fromEntries(
		Object.entries(values).map(([base, text]) => {
			const field = fields.find((each) => parseFieldId(each.id)?.base === base);
			if (!field) throw new Error(`no field ${base} for ${templateId}`);
			return [field.id, text];
		}),
	);
	return { mappingMode: 'defineBelow', value, schema: fields };
}

const fileNameIds = (fields: Array<{ id: string }>) =>
	fields.map((field) => field.id).filter((id) => id.startsWith('document_file_name'));

describe('version 1.3: the file name is a field of Values to Send for document headers only', () => {
	it('is offered, optional and in plain words, for a document header', async () => {
		const { fields } = await env.resourceMapping(
			'getTemplateFields',
			templateSendParameters(TEMPLATES.documentHeader.id),
		);
		const field = fields.find((each) => each.id.startsWith('document_file_name'));
		expect(field).toMatchObject({ displayName: DOCUMENT_FILE_NAME_LABEL, required: false });
		expect(field?.id).toMatch(/^document_file_name_t[0-9a-f]{8}$/);
	});

	it.each([
		['an image', TEMPLATES.imageHeader.id],
		['a video', TEMPLATES.videoHeader.id],
		['an image (with buttons)', TEMPLATES.mixedButtons.id],
		['a text', TEMPLATES.textHeader.id],
		['no', TEMPLATES.bodyOnly.id],
	])('is not offered for %s header', async (_what, templateId) => {
		const { fields } = await env.resourceMapping(
			'getTemplateFields',
			templateSendParameters(templateId),
		);
		expect(fileNameIds(fields)).toEqual([]);
	});

	it('is not offered by the editor of 1.2, which has Document File Name', async () => {
		const { fields } = await env.resourceMapping(
			'getTemplateFields',
			templateSendParameters(TEMPLATES.documentHeader.id),
			1.2,
		);
		expect(fileNameIds(fields)).toEqual([]);
		expect(fields.map((field) => parseFieldId(field.id)?.base)).toEqual(['body_1']);
	});

	it.each([
		['a media ID', { headerMedia: 'mediaId', mediaId: invoicePdf.media_id }],
		['a media ID typed per item', { headerMedia: 'mediaId', mediaId: '={{ $json.media }}' }],
	])('sends the name typed, with %s, and the output and Dry Run show it', async (_how, media) => {
		const parameters = templateSendParameters(TEMPLATES.documentHeader.id, {
			templateFields: await mapped(TEMPLATES.documentHeader.id, {
				body_1: 'INV-7',
				document_file_name: '={{ "Invoice " + $json.name + ".pdf" }}',
			}),
			...media,
		});
		const items = jsonItems({ ...customer, media: invoicePdf.media_id });
		const preview = await env.run({ ...parameters, dryRun: true }, items);
		expect(preview.error).toBeUndefined();
		expect(preview.items[0].json).toMatchObject({
			dryRun: true,
			header: { kind: 'document', fileName: 'Invoice Amina.pdf' },
			headerFile: 'Invoice Amina.pdf',
		});
		expect(changingRequests(env)).toEqual([]);
		const { items: output, error } = await env.run(parameters, items);
		expect(error).toBeUndefined();
		expect(env.sends()).toHaveLength(1);
		expect(env.sends()[0]).toMatchObject({ file_name: 'Invoice Amina.pdf' });
		expect(output[0].json).toMatchObject({
			outcome: 'sent',
			header: { kind: 'document', fileName: 'Invoice Amina.pdf' },
			headerFile: 'Invoice Amina.pdf',
			bodyText: 'Invoice INV-7 is attached.',
		});
	});

	it('left empty, sends no file name: the recipient sees the name given at upload', async () => {
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.documentHeader.id, {
				templateFields: await mapped(TEMPLATES.documentHeader.id, {
					body_1: 'INV-7',
					document_file_name: '',
				}),
				headerMedia: 'mediaId',
				mediaId: invoicePdf.media_id,
			}),
			jsonItems(customer),
		);
		expect(error).toBeUndefined();
		expect(env.sends()).toHaveLength(1);
		expect(env.sends()[0].file_name).toBeUndefined();
	});

	it('a name with no header file: refused for the missing file, naming Header Media', async () => {
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.documentHeader.id, {
				templateFields: await mapped(TEMPLATES.documentHeader.id, {
					body_1: 'INV-7',
					document_file_name: 'Invoice.pdf',
				}),
			}),
			jsonItems(customer),
		);
		expect(error?.message).toContain('"Header Media"');
		expect(error?.message).toMatch(/document header: give a media ID/);
		expect(error?.message).not.toContain('"File Name"');
		expect(changingRequests(env)).toEqual([]);
	});

	it('a name on two lines: refused, naming the field of Values to Send', async () => {
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.documentHeader.id, {
				templateFields: await mapped(TEMPLATES.documentHeader.id, {
					body_1: 'INV-7',
					document_file_name: '={{ "Invoice\\nBcc.pdf" }}',
				}),
				headerMedia: 'mediaId',
				mediaId: invoicePdf.media_id,
			}),
			jsonItems(customer),
		);
		expect(error?.message).toContain('"Values to Send > Document file name" must be a file name');
		expect(error?.message).toContain('item 1');
		expect(changingRequests(env)).toEqual([]);
	});

	it('a name mapped for the document template is not sent with an image template: refused, nothing sent', async () => {
		const invoiceFields = await mapped(TEMPLATES.documentHeader.id, {
			body_1: 'Amina',
			document_file_name: 'Invoice.pdf',
		});
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.imageHeader.id, {
				templateFields: invoiceFields,
				headerMedia: 'mediaId',
				mediaId: bannerPng.media_id,
			}),
			jsonItems(customer),
		);
		expect(error?.message).toContain('were mapped for template "invoice"');
		expect(changingRequests(env)).toEqual([]);
		// Refresh: the image template's fields have no file name, so n8n drops the value.
		const { fields } = await env.resourceMapping(
			'getTemplateFields',
			templateSendParameters(TEMPLATES.imageHeader.id, { templateFields: invoiceFields }),
		);
		expect(fileNameIds(fields)).toEqual([]);
	});

	it('a Document File Name left in a 1.3 node From the Template is not sent (it is not shown there)', async () => {
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.imageHeader.id, {
				templateFields: await mapped(TEMPLATES.imageHeader.id, { body_1: 'Amina' }),
				headerMedia: 'mediaId',
				mediaId: bannerPng.media_id,
				fileName: 'Invoice.pdf',
			}),
			jsonItems(customer),
		);
		expect(error).toBeUndefined();
		expect(env.sends()).toHaveLength(1);
		expect(env.sends()[0].file_name).toBeUndefined();
	});

	it('Define Below, which does not read the template, keeps Document File Name', async () => {
		const { error } = await env.run(
			templateSendParameters(TEMPLATES.documentHeader.id, {
				variablesMode: 'define',
				bodyVariables: { variable: [{ placeholder: 1, value: 'INV-7' }] },
				headerMedia: 'mediaId',
				mediaId: invoicePdf.media_id,
				fileName: 'Your invoice.pdf',
			}),
			jsonItems(customer),
		);
		expect(error).toBeUndefined();
		expect(env.sends()[0]).toMatchObject({ file_name: 'Your invoice.pdf' });
	});
});

describe('workflows saved by version 1.2 send as before', () => {
	/** A 1.2 node of `templateId` with Document File Name `fileName` and the media `mediaId`. */
	const savedBy12 = async (templateId: string, mediaId: string, fileName: string) =>
		await env.run(
			templateSendParameters(templateId, {
				templateFields: await mapped(templateId, { body_1: 'INV-7' }, 1.2),
				headerMedia: 'mediaId',
				mediaId,
				fileName,
			}),
			jsonItems(customer),
			{ typeVersion: 1.2 },
		);

	it('Document File Name set for a document template: that name is sent unchanged', async () => {
		const { items, error } = await savedBy12(
			TEMPLATES.documentHeader.id,
			invoicePdf.media_id,
			'Your invoice.pdf',
		);
		expect(error).toBeUndefined();
		expect(env.sends()).toHaveLength(1);
		expect(env.sends()[0]).toMatchObject({ file_name: 'Your invoice.pdf' });
		expect(items[0].json).toMatchObject({
			header: { kind: 'document', fileName: 'Your invoice.pdf' },
		});
	});

	it('a file name left over for an image template: refused for that reason, as before', async () => {
		const { error } = await savedBy12(TEMPLATES.imageHeader.id, bannerPng.media_id, 'Invoice.pdf');
		expect(error?.message).toContain('"File Name" applies to document headers only');
		expect(changingRequests(env)).toEqual([]);
	});
});
