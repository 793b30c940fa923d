/**
 * The demo workflow: every operation of the node, the way a marketer would wire it.
 * - Invoice file -> Media > Upload -> Customers (3) -> Message > Send Template (document header, the
 *   uploaded media id), and Customers -> Message > Send Template (URL button, fields from the template)
 * - New contact -> Contact > Create (groups, custom attributes) -> Contact > Delete
 * - Group > Get Many (every page), Sender Number > Get Many, Template > Get Many
 * - SMS Customers -> Message > Send SMS (customized per recipient) -> Account > Get Balance
 */
import { code, locator, smsLeopard, trigger, workflow } from './build';
import { balance, sendSms } from './sms';
import { savedTemplateFields } from './saved-fields';
import { TEMPLATES } from '../../sandbox';

export const DEMO_SENDER = '110000000000001';
const DEMO_SENDER_LOCATOR = locator(
	DEMO_SENDER,
	'list',
	'+254700000001 (phone_number_id 110000000000001)',
);
export const DEMO_PHONES = ['+254712000001', '+254712000002', '+254712000003'];
/** One text for all; the ë of Zoë (not in GSM-7) makes hers UCS-2, 70 characters a part: 2 parts. */
export const DEMO_SMS_TEXT =
	'Hi {name}, your order {order} is out for delivery today. Reply STOP to opt out';

const invoicePdf =
	"'%PDF-1.4\\n% demo invoice\\n1 0 obj << /Type /Catalog >> endobj\\ntrailer << /Root 1 0 R >>\\n%%EOF\\n'";

export function demoWorkflow(credential: { id: string; name: string }) {
	const start = trigger();
	const invoiceFile = code(
		'Invoice File',
		`[{ json: {}, binary: { invoice: { data: Buffer.from(${invoicePdf}).toString('base64'), mimeType: 'application/pdf', fileName: 'invoice.pdf', fileExtension: 'pdf' } } }]`,
	);
	const upload = smsLeopard('Upload Invoice', credential, {
		resource: 'media',
		operation: 'upload',
		senderNumber: DEMO_SENDER_LOCATOR,
		binaryPropertyName: 'invoice',
		options: { fileName: 'Invoice.pdf' },
	});
	// Each customer carries the uploaded media id; $json keeps every expression simple.
	const customers = code(
		'Customers',
		`[
  { name: 'Amina', phone: '${DEMO_PHONES[0]}', invoice: 'INV-1001', parcel: 'PX-501' },
  { name: 'Brian', phone: '${DEMO_PHONES[1]}', invoice: 'INV-1002', parcel: 'PX-502' },
  { name: 'Cynthia', phone: '${DEMO_PHONES[2]}', invoice: 'INV-1003', parcel: 'PX-503' },
].map((customer) => ({ json: { ...customer, mediaId: $('Upload Invoice').first().json.media_id } }))`,
	);
	const sendInvoice = smsLeopard('Send Invoice', credential, {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: DEMO_SENDER_LOCATOR,
		template: locator('tpl_invoice', 'list', 'invoice (en_US, UTILITY)'),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: savedTemplateFields(TEMPLATES.documentHeader, {
			body_1: '={{ $json.invoice }}',
		}),
		headerMedia: 'mediaId',
		mediaId: '={{ $json.mediaId }}',
		fileName: '={{ $json.invoice }}.pdf',
	});
	const sendTracking = smsLeopard('Send Tracking Link', credential, {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: DEMO_SENDER_LOCATOR,
		template: locator('tpl_track_parcel', 'list', 'track_parcel (en_US, UTILITY)'),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: savedTemplateFields(TEMPLATES.urlButton, {
			body_1: '={{ $json.parcel }}',
			button_0_url: '={{ $json.parcel }}',
		}),
	});
	const newContact = code(
		'New Signup',
		"[{ json: { phone: '+254722555001', name: 'Zawadi Akinyi', email: 'zawadi@example.com' } }]",
	);
	const createContact = smsLeopard('Create Contact', credential, {
		resource: 'contact',
		operation: 'create',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: {
			name: '={{ $json.name }}',
			email: '={{ $json.email }}',
			groupIds: [1, 2],
			customAttributes: {
				attribute: [
					{ name: 'signup_source', value: 'website' },
					{ name: 'plan', value: 'premium' },
				],
			},
		},
	});
	const deleteContact = smsLeopard('Delete Contact', credential, {
		resource: 'contact',
		operation: 'delete',
		contactId: '={{ $json.id }}',
	});
	const groups = smsLeopard('Get Groups', credential, {
		resource: 'group',
		operation: 'getAll',
		returnAll: true,
	});
	const senders = smsLeopard('Get Sender Numbers', credential, {
		resource: 'senderNumber',
		operation: 'getAll',
	});
	const templates = smsLeopard('Get Templates', credential, {
		resource: 'template',
		operation: 'getAll',
		senderNumber: DEMO_SENDER_LOCATOR,
	});
	const smsCustomers = code(
		'SMS Customers',
		`[
  { name: 'Amina', phone: '${DEMO_PHONES[0]}', order: 'A-1001' },
  { name: 'Zoë', phone: '${DEMO_PHONES[1]}', order: 'A-1002' },
  { name: 'Brian', phone: '${DEMO_PHONES[2]}', order: 'A-1003' },
].map((json) => ({ json }))`,
	);
	const smsSend = sendSms('Send SMS', credential, DEMO_SMS_TEXT, { customized: true, maxParts: 2 });
	const smsBalance = balance('SMS Balance', credential);
	return workflow('SMSLeopard demo', [
		[start, invoiceFile, upload, customers, sendInvoice],
		[customers, sendTracking],
		[start, newContact, createContact, deleteContact],
		[start, groups],
		[start, senders],
		[start, templates],
		[start, smsCustomers, smsSend, smsBalance],
	]);
}
