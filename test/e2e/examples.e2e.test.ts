/**
 * The example workflows of examples/, exactly as shipped, in real n8n with the packed package:
 * saved through n8n's REST API as the editor saves an imported file (the credential is found by its
 * name), activated, and started the way a marketer starts them, by submitting the form on its
 * production URL with the sample CSVs of examples/. The Form Triggers stay: swapping them for a
 * manual trigger would need a node that does not ship to produce the uploaded files.
 * Asserted on the sandbox's request log and the execution n8n stored.
 */
import { type ExecutionDetail, nodeItems, packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import {
	EXAMPLE_CREDENTIAL_NAME,
	type ExampleFile,
	formPath,
	readExample,
	readSample,
} from './workflows/examples';
import { CONTACTS, TEMPLATES } from '../sandbox';

const tarball = packedForThisFile();

const INVOICE_PDF = Buffer.from('%PDF-1.4\n% example invoice\ntrailer << >>\n%%EOF\n');

/** The sample CSV's rows as objects (plain CSV: no quoted commas in the samples). */
function csvRows(file: string): Array<Record<string, string>> {
	const [header, ...lines] = readSample(file).trim().split('\n');
	const columns = header.split(',');
	return lines.map((line) =>
		Object.fromEntries(line.split(',').map((value, index) => [columns[index], value])),
	);
}

/**
 * Opens the form page as the marketer would before filling it in. n8n 2.41 registers an activated
 * workflow's form a moment after the activation call returns (2.8 before it): wait, bounded.
 */
async function formPageOpens(url: string): Promise<void> {
	for (let attempt = 0; attempt < 60; attempt++) {
		if ((await fetch(url)).status === 200) return;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	throw new Error(`the form page ${url} did not open within 60 attempts`);
}

describe.each(selectedVersions())('n8n %s', (version) => {
	const n8n = useServedN8n(version, tarball, { credentialName: EXAMPLE_CREDENTIAL_NAME });

	/**
	 * Saves and activates the example, submits its form (values in the order of its fields, as the
	 * form page posts them: field-0, field-1, …) and returns the one execution it started.
	 */
	async function submitForm(
		file: ExampleFile,
		values: Array<string | { content: Buffer | string; fileName: string; type: string }>,
	): Promise<ExecutionDetail> {
		const workflow = readExample(file);
		// Saved into the owner's project as the editor does: n8n 1.x finds a credential by name only
		// when the project is named.
		const projectId = await n8n.rest.personalProjectId();
		const id = await n8n.rest.activateWorkflow({ ...workflow, projectId });
		const stored = await n8n.rest.workflow(id);
		// Every SMSLeopard node now points at the credential created above, found by its name.
		for (const entry of stored.nodes as Array<{ credentials?: Record<string, { id?: string }> }>) {
			if (entry.credentials) expect(entry.credentials.smsLeopardApi.id).toEqual(expect.any(String));
		}
		const form = new FormData();
		values.forEach((value, index) => {
			if (typeof value === 'string') form.append(`field-${index}`, value);
			else
				form.append(
					`field-${index}`,
					new Blob([value.content], { type: value.type }),
					value.fileName,
				);
		});
		const formUrl = `${n8n.server.url}/form/${formPath(workflow)}`;
		await formPageOpens(formUrl);
		const response = await fetch(formUrl, {
			method: 'POST',
			body: form,
		});
		if (response.status !== 200)
			throw new Error(
				`form: HTTP ${response.status} ${await response.text()}\n${n8n.server.logs().slice(-3000)}`,
			);
		const [execution] = await n8n.rest.settledExecutions(id, 1);
		const detail = await n8n.rest.execution(execution.id);
		if (detail.status !== 'success') {
			throw new Error(`${file} ended ${detail.status}: ${JSON.stringify(detail.error)}`);
		}
		return detail;
	}

	it('send an invoice to a sheet of customers: the PDF is uploaded once, each row gets it once as the document header', async () => {
		const customers = csvRows('customers.csv');
		const detail = await submitForm('send-invoice-to-customer-sheet.json', [
			{ content: readSample('customers.csv'), fileName: 'customers.csv', type: 'text/csv' },
			{ content: INVOICE_PDF, fileName: 'invoice-march.pdf', type: 'application/pdf' },
		]);

		const uploads = n8n.sandbox.requests.filter((request) => request.path.endsWith('/media'));
		expect(uploads).toHaveLength(1);
		const [media] = nodeItems(detail.runData, 'Upload Invoice');
		expect(media).toMatchObject({ mime_type: 'application/pdf' });

		const sends = n8n.sandbox.state.sentMessages;
		expect(sends).toHaveLength(customers.length);
		expect(sends.map((message) => message.templateId)).toEqual(
			customers.map(() => TEMPLATES.documentHeader.id),
		);
		expect(sends.map((message) => message.mediaId)).toEqual(customers.map(() => media.media_id));
		expect(sends.map((message) => message.fileName).sort()).toEqual(
			customers.map((row) => `${row.invoice}.pdf`).sort(),
		);
		// Each recipient once, whatever way the sheet writes the number.
		expect(Object.values(n8n.sandbox.state.sendCountByDestination)).toEqual(customers.map(() => 1));

		const rows = nodeItems(detail.runData, 'Send Invoice');
		expect(rows.map((row) => row.recipient)).toEqual(customers.map((row) => row.phone));
		expect(rows.every((row) => row.status === 'Success' && row.mediaId === media.media_id)).toBe(
			true,
		);
	});

	it('welcome a new contact: the form creates the contact with its group and attribute, then one welcome template goes to the saved number', async () => {
		const detail = await submitForm('welcome-new-contact.json', [
			'Wanjiku Mwangi',
			'0722 123 456',
			'wanjiku@example.com',
		]);

		const creates = n8n.sandbox.requests.filter(
			(request) => request.path === '/v1/contacts/create',
		);
		expect(creates).toHaveLength(1);
		expect(creates[0].body).toMatchObject({
			name: 'Wanjiku Mwangi',
			email: 'wanjiku@example.com',
			group_ids: [1],
			custom_metadata: { fields: [{ name: 'signup_source', value: 'n8n form' }] },
		});
		const [contact] = nodeItems(detail.runData, 'Save Contact');
		expect(n8n.sandbox.state.contacts.some((entry) => entry.id === contact.id)).toBe(true);

		expect(n8n.sandbox.state.sentMessages).toHaveLength(1);
		const [welcome] = n8n.sandbox.state.sentMessages;
		expect(welcome).toMatchObject({
			templateId: TEMPLATES.textHeader.id,
			destination: contact.phone_number,
		});
		expect(welcome.componentList).toEqual({
			components: [
				{ component_type: 'HEADER', fields: [{ name: '1', value: 'Wanjiku Mwangi' }] },
				{
					component_type: 'BODY',
					fields: [
						{ name: '1', value: 'Wanjiku Mwangi' },
						{ name: '2', value: 'our WhatsApp club' },
					],
				},
			],
		});
		expect(nodeItems(detail.runData, 'Send Welcome')).toEqual([
			expect.objectContaining({ number: contact.phone_number, status: 'Success' }),
		]);
	});

	it('remove unsubscribed contacts: only the rows marked unsubscribed are deleted, each once, and one already gone counts as done', async () => {
		const rows = csvRows('contacts.csv');
		const unsubscribed = rows.filter((row) => row.status.toLowerCase() === 'unsubscribed');
		const detail = await submitForm('clean-up-contacts.json', [
			{ content: readSample('contacts.csv'), fileName: 'contacts.csv', type: 'text/csv' },
		]);

		const deletes = n8n.sandbox.requests.filter((request) => request.method === 'DELETE');
		expect(deletes.map((request) => request.path)).toEqual(
			unsubscribed.map((row) => `/v1/contacts/${row.contact_id}`),
		);
		expect(n8n.sandbox.state.contacts.map((contact) => contact.id)).not.toContain(
			CONTACTS.brian.id,
		);
		expect(n8n.sandbox.state.contacts.map((contact) => contact.id)).toEqual(
			expect.arrayContaining([CONTACTS.amina.id, CONTACTS.cynthia.id]),
		);
		expect(nodeItems(detail.runData, 'Delete Contact')).toEqual([
			expect.objectContaining({ contactId: String(CONTACTS.brian.id), deleted: true }),
			expect.objectContaining({ contactId: '1098', deleted: false, notFound: true }),
		]);
	});
});
