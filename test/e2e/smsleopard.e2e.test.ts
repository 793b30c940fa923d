/**
 * The product as users get it: `npm pack`, installed into n8n's community nodes folder, run by real
 * n8n versions with `n8n execute` against the sandbox. Both the outputs and what the sandbox received
 * are asserted.
 */
import { type WorkflowJson, nodeItems, packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { code, locator, smsLeopard, trigger, workflow } from './workflows/build';
import { DEMO_PHONES, demoWorkflow } from './workflows/demo';
import { flowSend } from './workflows/flow-send';
import { expectOk, useSandboxedN8n } from './sandboxed-n8n';
import { SENDERS, TEMPLATES } from '../sandbox';
import { savedTemplateFields } from './workflows/saved-fields';

const GOOD = { id: 'e2eGoodCredential01', name: 'SMSLeopard sandbox' };
const WRONG_SECRET = { id: 'e2eWrongSecret0001', name: 'SMSLeopard wrong secret' };
const WRONG_SECRET_VALUE = 'wrong-secret-must-never-show-9931';
const sender = SENDERS.primary.phone_number_id;

const tarball = packedForThisFile();

const phones = (count: number, prefix = '+2547105') =>
	Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(5, '0')}`);

describe.each(selectedVersions())('n8n %s', (version) => {
	const n8n = useSandboxedN8n(
		version,
		tarball,
		(data) => [
			{ ...GOOD, type: 'smsLeopardApi', data },
			{ ...WRONG_SECRET, type: 'smsLeopardApi', data: { ...data, apiSecret: WRONG_SECRET_VALUE } },
		],
		{ groupCount: 230 },
	);
	const run = (json: WorkflowJson) => n8n.run(json);

	it('uploads a file made in the workflow, then sends a document-header template with its media id', async () => {
		const result = await run(demoWorkflow(GOOD));
		expectOk(result);
		const media = nodeItems(result.runData, 'Upload Invoice');
		expect(media).toHaveLength(1);
		expect(n8n.sandbox.requests.filter((request) => request.path.endsWith('/media'))).toHaveLength(
			1,
		);
		const invoices = nodeItems(result.runData, 'Send Invoice');
		expect(invoices.map((item) => item.number)).toEqual(DEMO_PHONES);
		const documentSends = n8n.sandbox.state.sentMessages.filter(
			(message) => message.templateId === TEMPLATES.documentHeader.id,
		);
		expect(documentSends.map((message) => message.mediaId)).toEqual([
			media[0].media_id,
			media[0].media_id,
			media[0].media_id,
		]);
		expect(documentSends.map((message) => message.fileName)).toEqual([
			'INV-1001.pdf',
			'INV-1002.pdf',
			'INV-1003.pdf',
		]);
		// The rest of the demo: every other operation ran too.
		expect(nodeItems(result.runData, 'Get Groups')).toHaveLength(230);
		expect(nodeItems(result.runData, 'Delete Contact')[0]).toMatchObject({ deleted: true });
		// The demo's SMS: the ë of Zoë makes her text UCS-2 and 2 parts; the balance once, after.
		expect(
			nodeItems(result.runData, 'Send SMS').map((item) => [item.encoding, item.parts]),
		).toEqual([
			['GSM-7', 1],
			['UCS-2', 2],
			['GSM-7', 1],
		]);
		expect(nodeItems(result.runData, 'SMS Balance')).toHaveLength(1);
	});

	it('sends header media straight from a binary field: one upload for many recipients', async () => {
		const recipients = phones(12);
		const result = await run(
			workflow('binary header', [
				[
					trigger(),
					code(
						'Recipients',
						`${JSON.stringify(recipients)}.map((phone, i) => ({ json: { phone, invoice: 'INV-' + i }, binary: { doc: { data: Buffer.from('%PDF-1.4 brochure').toString('base64'), mimeType: 'application/pdf', fileName: 'brochure.pdf' } } }))`,
					),
					smsLeopard('Send Brochure', GOOD, {
						resource: 'message',
						operation: 'sendTemplate',
						senderNumber: locator(sender),
						template: locator(TEMPLATES.documentHeader.id),
						destination: '={{ $json.phone }}',
						variablesMode: 'template',
						templateFields: {
							mappingMode: 'defineBelow',
							value: { body_1: '={{ $json.invoice }}' },
						},
						headerMedia: 'binary',
						binaryPropertyName: 'doc',
					}),
				],
			]),
		);
		expectOk(result);
		expect(nodeItems(result.runData, 'Send Brochure')).toHaveLength(12);
		expect(n8n.sandbox.requests.filter((request) => request.path.endsWith('/media'))).toHaveLength(
			1,
		);
		expect(n8n.sandbox.state.sentMessages).toHaveLength(12);
	});

	it('sends text templates with body variables, a URL button and quick reply payloads for many items', async () => {
		const recipients = phones(25, '+2547106');
		const customers = code(
			'Customers',
			`${JSON.stringify(recipients)}.map((phone, i) => ({ json: { phone, name: 'Customer ' + i, parcel: 'PX-' + i } }))`,
		);
		const result = await run(
			workflow('text templates', [
				[
					trigger(),
					customers,
					smsLeopard('Tracking', GOOD, {
						resource: 'message',
						operation: 'sendTemplate',
						senderNumber: locator(sender),
						template: locator(TEMPLATES.urlButton.id),
						destination: '={{ $json.phone }}',
						variablesMode: 'template',
						templateFields: {
							mappingMode: 'defineBelow',
							value: { body_1: '={{ $json.parcel }}', button_0_url: '={{ $json.parcel }}' },
						},
					}),
				],
				[
					customers,
					smsLeopard('Feedback', GOOD, {
						resource: 'message',
						operation: 'sendTemplate',
						senderNumber: locator(sender),
						template: locator(TEMPLATES.quickReplies.id),
						destination: '={{ $json.phone }}',
						variablesMode: 'define',
						bodyVariables: {
							variable: [{ placeholder: 1, value: '={{ $json.name }}' }],
						},
						buttons: {
							button: [
								{
									kind: 'quickReply',
									index: 0,
									value: '=yes-{{ $json.parcel }}',
								},
								{
									kind: 'quickReply',
									index: 1,
									value: '=no-{{ $json.parcel }}',
								},
							],
						},
					}),
				],
			]),
		);
		expectOk(result);
		expect(nodeItems(result.runData, 'Tracking').map((item) => item.number)).toEqual(recipients);
		// One flat row per item: the recipient as given, the template's name, no nested columns.
		expect(nodeItems(result.runData, 'Tracking')[0]).toMatchObject({
			recipient: recipients[0],
			templateName: expect.any(String),
		});
		expect(nodeItems(result.runData, 'Tracking')[0]).not.toHaveProperty('currency');
		expect(nodeItems(result.runData, 'Tracking')[0].recipients).toBeUndefined();
		expect(nodeItems(result.runData, 'Feedback')).toHaveLength(25);
		const feedback = n8n.sandbox.state.sentMessages.filter(
			(message) => message.templateId === TEMPLATES.quickReplies.id,
		);
		const seventh = feedback.find((message) => message.destination === recipients[7]);
		expect(seventh?.componentList).toEqual({
			components: [
				{ component_type: 'BODY', fields: [{ name: '1', value: 'Customer 7' }] },
				{
					component_type: 'BUTTONS',
					fields: [
						{ name: 'quick_reply:0', value: 'yes-PX-7' },
						{ name: 'quick_reply:1', value: 'no-PX-7' },
					],
				},
			],
		});
		const tracking = n8n.sandbox.state.sentMessages.find(
			(message) =>
				message.templateId === TEMPLATES.urlButton.id && message.destination === recipients[3],
		);
		expect(
			(tracking?.componentList as { components: unknown[] } | undefined)?.components[1],
		).toEqual({
			component_type: 'BUTTONS',
			fields: [{ name: 'url:0', value: 'PX-3' }],
		});
		expect(
			Object.values(n8n.sandbox.state.sendCountByDestination).every((count) => count === 2),
		).toBe(true);
	});

	it('sends an authentication-code template', async () => {
		const result = await run(
			workflow('otp', [
				[
					trigger(),
					code('Login', "[{ json: { phone: '+254710700001', code: '381920' } }]"),
					smsLeopard('Send Code', GOOD, {
						resource: 'message',
						operation: 'sendTemplate',
						senderNumber: locator(sender),
						template: locator(TEMPLATES.authCode.id),
						destination: '={{ $json.phone }}',
						variablesMode: 'template',
						templateFields: {
							mappingMode: 'defineBelow',
							value: { auth_code: '={{ $json.code }}' },
						},
					}),
				],
			]),
		);
		expectOk(result);
		expect(nodeItems(result.runData, 'Send Code')[0]).toMatchObject({ status: 'Success' });
		expect(n8n.sandbox.state.sentMessages[0].componentList).toEqual({
			components: [
				{ component_type: 'BODY', fields: [{ name: '1', value: '381920' }] },
				{ component_type: 'BUTTONS', fields: [{ name: '1', value: '381920' }] },
			],
		});
	});

	it('creates a contact with groups and attributes, lists every group across pages, deletes the contact', async () => {
		const result = await run(demoWorkflow(GOOD));
		expectOk(result);
		const created = nodeItems(result.runData, 'Create Contact')[0];
		expect(created).toMatchObject({
			name: 'Zawadi Akinyi',
			phone_number: '+254722555001',
			groupIds: [1, 2],
			customAttributes: [
				{ name: 'signup_source', value: 'website' },
				{ name: 'plan', value: 'premium' },
			],
		});
		const createRequest = n8n.sandbox.requests.find(
			(request) => request.path === '/v1/contacts/create',
		);
		expect(createRequest?.body).toMatchObject({
			group_ids: [1, 2],
			custom_metadata: {
				fields: [
					{ name: 'signup_source', value: 'website' },
					{ name: 'plan', value: 'premium' },
				],
			},
		});
		expect(
			n8n.sandbox.requests
				.filter((request) => request.path === '/v1/groups/fetch')
				.map((request) => request.query.page),
		).toEqual(['1', '2', '3']);
		expect(nodeItems(result.runData, 'Get Groups').map((group) => group.id)).toEqual(
			Array.from({ length: 230 }, (_, index) => index + 1),
		);
		expect(
			n8n.sandbox.requests.some(
				(request) =>
					request.method === 'DELETE' && request.path === `/v1/contacts/${String(created.id)}`,
			),
		).toBe(true);
		expect(n8n.sandbox.state.contacts.some((contact) => contact.id === created.id)).toBe(false);
	});

	const mixedItems = code(
		'Mixed',
		"[{ json: { phone: '+254710800001' } }, { json: { phone: 'not a number' } }, { json: { phone: '+254710800003' } }]",
	);
	const sendFlow = (onError?: 'continueRegularOutput' | 'continueErrorOutput') =>
		flowSend(GOOD, onError ? { onError } : {}, { requestOptions: { concurrency: 1 } });

	it('with Continue On Fail: invalid items become error items, the others are sent', async () => {
		const result = await run(
			workflow('continue on fail', [[trigger(), mixedItems, sendFlow('continueRegularOutput')]]),
		);
		expectOk(result);
		const items = nodeItems(result.runData, 'Send');
		expect(items).toHaveLength(3);
		expect(items[1]).toMatchObject({
			errorKind: 'validation',
			error: expect.stringContaining('"Recipient" is not a valid phone number'),
		});
		expect(n8n.sandbox.state.sentMessages.map((message) => message.destination)).toEqual([
			'+254710800001',
			'+254710800003',
		]);
	});

	// Five recipients, two of them invalid (items 1 and 3).
	const fiveItems = code(
		'Five',
		"['+254710800011', 'not a number', '+254710800013', '', '+254710800015'].map((phone) => ({ json: { phone } }))",
	);

	it('Continue (using error output): 3 sent items on the success output, the 2 invalid on the error output', async () => {
		const result = await run(
			workflow('error output', [[trigger(), fiveItems, sendFlow('continueErrorOutput')]]),
		);
		expectOk(result);
		const sent = nodeItems(result.runData, 'Send');
		const failed = nodeItems(result.runData, 'Send', { output: 1 });
		expect(sent.map((item) => item.number)).toEqual([
			'+254710800011',
			'+254710800013',
			'+254710800015',
		]);
		expect(failed).toHaveLength(2);
		// n8n adds the input item's fields beside `error` on the error branch.
		expect(failed.map((item) => item.phone)).toEqual(['not a number', '']);
		for (const item of failed) {
			expect(item.error).toMatchObject({
				message: expect.stringContaining('"Recipient"'),
				errorKind: 'validation',
			});
		}
		expect(n8n.sandbox.state.sentMessages).toHaveLength(3);
	});

	it('Continue (regular output): all 5 items on the success output, the 2 invalid as error items', async () => {
		const result = await run(
			workflow('regular output', [[trigger(), fiveItems, sendFlow('continueRegularOutput')]]),
		);
		expectOk(result);
		const items = nodeItems(result.runData, 'Send');
		expect(items.map((item) => item.errorKind ?? item.number)).toEqual([
			'+254710800011',
			'validation',
			'+254710800013',
			'validation',
			'+254710800015',
		]);
		expect(nodeItems(result.runData, 'Send', { output: 1 })).toHaveLength(0);
		expect(n8n.sandbox.state.sentMessages).toHaveLength(3);
	});

	it('without Continue On Fail: a bad item stops the run before anything is sent, and the error says so', async () => {
		const result = await run(workflow('stop on error', [[trigger(), mixedItems, sendFlow()]]));
		expect(result.ok).toBe(false);
		const error = JSON.stringify(result.error);
		expect(error).toContain('Invalid input in item 2');
		expect(error).toContain('is not a valid phone number');
		// Every item is checked before the first send: nothing half sent, all safe to run again.
		expect(error).toContain('Sent: none.');
		expect(error).toContain('safe to run again');
		expect(n8n.sandbox.state.sentMessages).toHaveLength(0);
	});

	it('nothing wrong goes out unnoticed: a dry run lists every item, stale fields and {placeholders} are refused', async () => {
		// Three customers, two of them bad: a short number, and an emoji text over 70 characters with
		// Max Parts per Message set to 1 (without the option, a 2-part text is sent).
		const customers = code(
			'Customers',
			`[{ phone: '+254710900001', text: 'Hi Amina' }, { phone: '12', text: 'Hi Bo' }, { phone: '+254710900003', text: 'Big sale 🎉 ${'x'.repeat(70)}' }].map((json) => ({ json }))`,
		);
		const dryRun = smsLeopard('Dry Run', GOOD, {
			resource: 'message',
			operation: 'sendSms',
			source: 'SMS_Leopard',
			recipient: '={{ $json.phone }}',
			textMode: 'customized',
			message: '{text}',
			dryRun: true,
			pricePerPart: 0.8,
			smsOptions: { maxParts: 1 },
		});
		// Values to Send as the editor saved them for promo, while the node now sends order_update.
		const promoFields = savedTemplateFields(TEMPLATES.mixedButtons, {
			body_1: 'Amina',
			body_2: '20%',
			button_1_url: 'SALE20',
		});
		const staleFields = smsLeopard(
			'Stale Fields',
			GOOD,
			{
				resource: 'message',
				operation: 'sendTemplate',
				senderNumber: locator(sender),
				template: locator(TEMPLATES.bodyOnly.id),
				destination: "={{ $('Customers').item.json.phone }}",
				variablesMode: 'template',
				templateFields: promoFields,
			},
			{ onError: 'continueRegularOutput' },
		);
		const sameText = smsLeopard('Same Text', GOOD, {
			resource: 'message',
			operation: 'sendSms',
			source: 'SMS_Leopard',
			recipient: "={{ $('Customers').item.json.phone }}",
			message: 'Dear {name}, your order is ready',
		});
		const result = await run(
			workflow('nothing unnoticed', [[trigger(), customers, dryRun, staleFields, sameText]]),
		);
		expect(nodeItems(result.runData, 'Dry Run').map((item) => item.outcome)).toEqual([
			'would send',
			'would be refused',
			'would be refused',
		]);
		expect(nodeItems(result.runData, 'Dry Run')[2].reason).toMatch(
			/"Message" would be sent in 2 parts .*because "🎉" is not in the GSM alphabet/,
		);
		const hints = (result.runData['Dry Run']?.[0] as { hints?: Array<{ message: string }> })?.hints;
		expect(hints?.map((hint) => hint.message)).toEqual([
			'Dry run, nothing was sent: 1 SMS would go out (1 part, estimated cost 0.8 at 0.8 per part), 2 would be refused (their "reason" and "fix" are in the output).',
		]);
		expect(nodeItems(result.runData, 'Stale Fields')[0].error).toContain(
			'"Values to Send" were mapped for template "promo" (tpl_promo), not for the chosen template "order_update"',
		);
		expect(result.ok).toBe(false);
		expect(JSON.stringify(result.error)).toContain(
			'\\"Message\\" has {name}, which every recipient would get as written',
		);
		expect(n8n.sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
	});

	it('with a wrong API secret: a clear authentication error and no secret anywhere in the output', async () => {
		const result = await run(
			workflow('wrong secret', [
				[
					trigger(),
					code('One', "[{ json: { phone: '+254710900001' } }]"),
					{
						...sendFlow(),
						credentials: { smsLeopardApi: WRONG_SECRET },
					},
				],
			]),
		);
		expect(result.ok).toBe(false);
		const output = result.stdout + result.stderr + JSON.stringify(result.error);
		expect(output).toContain('HTTP 401');
		expect(output).toContain('Check the API key and secret');
		// The error says what the user was doing, not the sender listing that ran first.
		expect(JSON.stringify(result.error)).toContain("Sending template '");
		expect(JSON.stringify(result.error)).not.toMatch(/"message":"List sender numbers/);
		expect(output).not.toContain(WRONG_SECRET_VALUE);
		expect(output).not.toContain(n8n.sandbox.credentials.apiSecret);
		expect(n8n.sandbox.state.sentMessages).toHaveLength(0);
	});
});
