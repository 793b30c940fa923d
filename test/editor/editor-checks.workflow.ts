/**
 * The browser test's own workflow, next to the demo: the templates whose fields are easy to get wrong
 * on screen (phone and Flow buttons, an image header), a Header Media left over from a media template,
 * and Send SMS, so every operation a marketer fills in is seen in the editor.
 */
import { DEMO_CREDENTIAL } from '../../scripts/demo-support';
import { DEMO_SENDER } from '../e2e/workflows/demo';
import { code, locator, node, smsLeopard, trigger, workflow } from '../e2e/workflows/build';
import { TRIGGER_TYPE } from '../e2e/workflows/trigger';
import { TEMPLATES } from '../sandbox';
import { savedTemplateFields } from '../e2e/workflows/saved-fields';

export const EDITOR_CHECKS_ID = 'smsleopardEditor1';
/** The SMSLeopard Trigger's webhook id and secret: its URLs end /<id>/smsleopard. */
export const TRIGGER_WEBHOOK_ID = '5b1d0c2e-7a43-4e0f-9c1a-2f6e8d3b4a10';
export const TRIGGER_SECRET = 'editor-trigger-secret-42';

const sender = locator(DEMO_SENDER, 'list', '+254700000001 (phone number ID 110000000000001)');

const sendTemplate = (name: string, templateId: string, shown: string, more = {}) =>
	smsLeopard(name, DEMO_CREDENTIAL, {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: sender,
		template: locator(templateId, 'list', shown),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		...more,
	});

export function editorChecksWorkflow() {
	const customer = code(
		'Customer',
		"[{ json: { name: 'Amina', phone: '+254712000001', order: 'A-1001' } }]",
	);
	const callUs = sendTemplate('Call Us', TEMPLATES.phoneButton.id, 'call_us (en_US, UTILITY)');
	const bookFlow = sendTemplate(
		'Book Appointment',
		TEMPLATES.flow.id,
		'book_flow (en_US, MARKETING)',
	);
	const promo = sendTemplate('Promo', TEMPLATES.mixedButtons.id, 'promo (en_US, MARKETING)');
	// Header Media was set for a document template, then the template was changed to a text one.
	const orderUpdate = sendTemplate(
		'Order Update',
		TEMPLATES.bodyOnly.id,
		'order_update (en_US, UTILITY)',
		{
			templateFields: savedTemplateFields(TEMPLATES.bodyOnly, {
				body_1: '={{ $json.name }}',
				body_2: '={{ $json.order }}',
			}),
			headerMedia: 'mediaId',
			mediaId: '9700000000000001',
		},
	);
	// Node version 1.3: a document's file name is a field of Values to Send, for document headers
	// only; Header Media set for both, as a marketer does.
	const headerMedia = { headerMedia: 'mediaId', mediaId: '9700000000000001' };
	const promoNow = {
		...sendTemplate(
			'Promo 1.3',
			TEMPLATES.mixedButtons.id,
			'promo (en_US, MARKETING)',
			headerMedia,
		),
		typeVersion: 1.3,
	};
	const invoiceNow = {
		...sendTemplate('Invoice 1.3', TEMPLATES.documentHeader.id, 'invoice (en_US, UTILITY)', {
			...headerMedia,
			templateFields: savedTemplateFields(TEMPLATES.documentHeader, { body_1: 'INV-7' }, 1.3),
		}),
		typeVersion: 1.3,
	};
	// Node version 1.1: Define Below counts button positions from 1 (the second quick reply is 2).
	const defineBelow = {
		...sendTemplate('Define Below', TEMPLATES.quickReplies.id, 'feedback (en_US, MARKETING)', {
			variablesMode: 'define',
			bodyVariables: { variable: [{ placeholder: 1, value: '={{ $json.name }}' }] },
			buttons: { button: [{ kind: 'quickReply', position: 2, value: 'no-thanks' }] },
		}),
		typeVersion: 1.1,
	};
	const usingJson = sendTemplate(
		'Using JSON',
		TEMPLATES.urlButton.id,
		'track_parcel (en_US, UTILITY)',
		{ variablesMode: 'json' },
	);
	const sms = smsLeopard('Send SMS', DEMO_CREDENTIAL, {
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		message: '=Hi {{ $json.name }}, your order {{ $json.order }} is ready for pick-up.',
	});
	// Three customers, the second with a typo in the phone: with Stop Workflow nothing is sent.
	const typo = code(
		'Customers With A Typo',
		"[{ json: { phone: '+254712000001' } }, { json: { phone: '12' } }, { json: { phone: '+254712000003' } }]",
	);
	const badPhone = sendTemplate('Bad Phone', TEMPLATES.flow.id, 'book_flow (en_US, MARKETING)', {
		variablesMode: 'define',
	});
	// Dry Run of a customized text with an emoji: the UCS-2 notice, then the totals after a run.
	// Node version 1.2: the output keeps the input item's fields (Include Input Fields).
	const smsDryRun = smsLeopard('SMS Dry Run', DEMO_CREDENTIAL, {
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		textMode: 'customized',
		message: 'Hi {name} 🎉 your order {order} is ready',
		dryRun: true,
		pricePerPart: 0.9,
	});
	smsDryRun.typeVersion = 1.2;
	// Issue 42: "Dear {name}" with Same Text for Everyone reaches no one with the braces as typed.
	const samePlaceholder = smsLeopard('Same Text With Placeholder', DEMO_CREDENTIAL, {
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		message: 'Dear {name}, your order is ready for pick-up.',
	});
	// Issue 42: a campaign check lists every item, the good one and the two a send would refuse (a
	// typo in a phone, an emoji text over 70 characters at Max Parts per Message 1, as saved).
	const campaign = code(
		'Campaign List',
		[
			'[',
			"{ json: { name: 'Amina', phone: '+254712000001', offer: '20% off shoes' } },",
			"{ json: { name: 'Brian', phone: '12', offer: '20% off shoes' } },",
			"{ json: { name: 'Cynthia', phone: '+254712000003', offer: 'every dress, shirt and pair of shoes half price until Sunday evening 🎉' } },",
			']',
		].join(' '),
	);
	const campaignDryRun = smsLeopard('Campaign Dry Run', DEMO_CREDENTIAL, {
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		textMode: 'customized',
		message: 'Hi {name}, {offer}',
		dryRun: true,
		pricePerPart: 0.8,
		smsOptions: { maxParts: 1 },
	});
	// A campaign batch's send: the summary and the one recipient not sent, nothing per sent recipient.
	const campaignSummary = {
		...smsLeopard('Campaign Batch Summary', DEMO_CREDENTIAL, {
			resource: 'message',
			operation: 'sendSms',
			source: 'SMS_Leopard',
			recipient: '={{ $json.phone }}',
			message: 'Flash sale today only',
			requestOptions: { output: 'summary' },
		}),
		onError: 'continueRegularOutput',
	};
	const reports = node(
		'Delivery Reports',
		TRIGGER_TYPE,
		1,
		// Refused posts as executions are off here: the test event after a forged post is the report.
		// Gather Posts as the docs give it: "Listen for test event" still takes the one post.
		{ secret: TRIGGER_SECRET, reportRefusedPosts: false, options: { gatherMs: 250 } },
		{ webhookId: TRIGGER_WEBHOOK_ID },
	);
	return {
		id: EDITOR_CHECKS_ID,
		...workflow('SMSLeopard editor checks', [
			[trigger(), customer, callUs],
			[customer, bookFlow],
			[customer, promo],
			[customer, promoNow],
			[customer, invoiceNow],
			[customer, orderUpdate],
			[customer, defineBelow],
			[customer, usingJson],
			[customer, sms],
			[customer, smsDryRun],
			[trigger('Start Typo'), typo, badPhone],
			[customer, samePlaceholder],
			[trigger('Start Campaign'), campaign, campaignDryRun],
			[campaign, campaignSummary],
			[reports],
		]),
	};
}
