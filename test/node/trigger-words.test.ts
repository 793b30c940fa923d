/**
 * Words the editor shows for the trigger and its credential: the node creator's trigger events
 * (n8n shows an option's `action`, else "On " + its name in lower case: "On whats app message or
 * reply"), the canvas subtitle as n8n's own expression engine evaluates it, and what the credential
 * says the Webhook Secret is for.
 */
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { triggerInWorkflow } from './trigger-support';

const trigger = new SmsLeopardTrigger();
const events = trigger.description.properties.find((property) => property.name === 'events');

/** The subtitle as the editor computes it for a node on the canvas. */
function subtitleFor(selected: string[]): unknown {
	const { workflow, node } = triggerInWorkflow(2, { events: selected });
	return workflow.expression.getSimpleParameterValue(
		node,
		trigger.description.subtitle,
		'internal',
		{},
	);
}

describe('the trigger in words', () => {
	it('each event is offered in the node creator as proper words', () => {
		const actions = (events?.options ?? []).map((option) => (option as { action?: string }).action);
		expect(actions.sort()).toEqual([
			'On SMS Delivery Report',
			'On SMS Message or Reply',
			'On Unrecognised Post',
			'On WhatsApp Message Status',
			'On WhatsApp Message or Reply',
		]);
	});

	it.each([
		[['smsDeliveryReport'], 'SMS delivery reports'],
		[['whatsappMessage', 'whatsappStatus'], 'WhatsApp messages, WhatsApp statuses'],
		[
			['smsDeliveryReport', 'smsMessage', 'whatsappMessage', 'whatsappStatus', 'unrecognised'],
			'All events',
		],
		// Every event before SMS replies had their own kind: those posts still come in (as smsMessage).
		[
			['smsDeliveryReport', 'whatsappMessage', 'whatsappStatus', 'unrecognised'],
			'SMS delivery reports, WhatsApp messages, WhatsApp statuses, other posts',
		],
		[['smsMessage', 'whatsappMessage'], 'SMS messages, WhatsApp messages'],
	])('the canvas subtitle for %j reads "%s"', (selected, words) => {
		expect(subtitleFor(selected)).toBe(words);
	});

	it('the subtitle of a new trigger (its default events) is in words', () => {
		expect(subtitleFor(events?.default as string[])).toBe('All events');
	});
});

describe('the credential in words', () => {
	const webhookSecret = new SmsLeopardApi().properties.find(
		(property) => property.name === 'webhookSecret',
	);

	it('says the Webhook Secret is needed to receive, never "Optional"', () => {
		expect(webhookSecret?.description).not.toMatch(/optional/i);
		expect(webhookSecret?.description).toMatch(
			/^Needed to receive with the SMSLeopard Trigger: without it the trigger lets no post in\./,
		);
		expect(webhookSecret?.description).toContain('Not needed for sending.');
	});
});
