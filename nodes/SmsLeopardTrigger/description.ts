/** The trigger's fields: its secret, which events, which statuses, and the repeat filter. */
import type { INodeProperties } from 'n8n-workflow';

export const triggerProperties: INodeProperties[] = [
	{
		displayName:
			"Set a Webhook Secret in the SMSLeopard API credential chosen above (until a credential is chosen, n8n keeps the test-event button unavailable; a credential without a Webhook Secret lets no post in). Then give SMSLeopard this trigger's Production URL (Webhook URLs above: switch from Test URL to Production URL): for SMS, as Send SMS's Delivery Report URL (with the same credential it sends the secret by itself); for WhatsApp, in your SMSLeopard account's webhook setting with the same secret. To receive, publish the workflow (in n8n 1.x: activate it). The Test URL receives only while the editor listens for a test event.",
		name: 'setupNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@version': [2] } },
	},
	{
		displayName:
			"Give SMSLeopard this trigger's Production URL (Webhook URLs above: switch from Test URL to Production URL): for SMS, as the Delivery Report URL of Send SMS with the same secret as its Delivery Report Secret; for WhatsApp, in your SMSLeopard account's webhook setting. To receive, publish the workflow (in n8n 1.x: activate it). Until the Secret below is set, n8n keeps the test-event button unavailable: a trigger without a secret would accept anyone's posts.",
		name: 'setupNoticeV1',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName:
			"This trigger keeps its Secret in the workflow, where anyone who can see the workflow or an execution can read it. A new SMSLeopard Trigger takes it from the SMSLeopard API credential's Webhook Secret instead (encrypted by n8n): add one, set its Webhook Secret to this Secret, and delete this one.",
		name: 'moveSecretNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Secret',
		name: 'secret',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'A secret of your choosing. Posts that do not carry it get 401 and start nothing. For SMS, use the same text as Delivery Report Secret in Send SMS.',
		displayOptions: { show: { '@version': [1] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [
			'smsDeliveryReport',
			'smsMessage',
			'whatsappMessage',
			'whatsappStatus',
			'unrecognised',
		],
		options: [
			{
				name: 'SMS Delivery Report',
				value: 'smsDeliveryReport',
				action: 'On SMS Delivery Report',
				description: 'Whether an SMS sent with a Delivery Report URL was delivered',
			},
			{
				name: 'SMS Message or Reply',
				value: 'smsMessage',
				action: 'On SMS Message or Reply',
				description:
					'An SMS a customer sent to your number, where your account posts them (before this option they came as Unrecognised Post, which still lets them in)',
			},
			{
				name: 'Unrecognised Post',
				value: 'unrecognised',
				action: 'On Unrecognised Post',
				description: 'A post with the secret that is none of the others: its body as received',
			},
			{
				name: 'WhatsApp Message or Reply',
				value: 'whatsappMessage',
				action: 'On WhatsApp Message or Reply',
				description: 'A message from a customer, including a tapped quick-reply button',
			},
			{
				name: 'WhatsApp Message Status',
				value: 'whatsappStatus',
				action: 'On WhatsApp Message Status',
				description: 'Sent, delivered, read or failed, for a message you sent',
			},
		],
	},
	{
		displayName: 'Statuses',
		name: 'statuses',
		type: 'options',
		default: 'all',
		description: 'Which delivery reports and message statuses start the workflow',
		options: [
			{ name: 'All', value: 'all', description: 'Every status, including queued and sent' },
			{
				name: 'Final Only',
				value: 'final',
				description: 'Delivered or failed: one execution per message in the usual case',
			},
			{ name: 'Delivered Only', value: 'delivered' },
			{ name: 'Failed Only', value: 'failed', description: 'Undelivered, expired or rejected' },
		],
	},
	{
		displayName: 'Report Refused Posts',
		name: 'reportRefusedPosts',
		type: 'boolean',
		// On also for triggers saved before it existed: a refused post was silent there too.
		default: true,
		description:
			'Whether a post refused for its secret also starts an execution on the Refused Posts output, with the reason and where the secret was looked for (never the body or the secret). At most one a minute per reason, so a stranger cannot start executions freely; it still gets 401.',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Default Country Code',
				name: 'countryCode',
				type: 'string',
				default: '254',
				placeholder: '254',
				description:
					"The country of a national number (0 and 9 digits, such as 0712345678) when a message's sender is read into From (Normal Form): 254 is Kenya",
			},
			{
				displayName: 'Drop Repeated Reports',
				name: 'dropRepeats',
				type: 'boolean',
				default: true,
				description:
					'Whether to drop a report or event whose message ID and status this trigger has already received',
			},
			{
				displayName: 'Gather Posts (Milliseconds)',
				name: 'gatherMs',
				type: 'number',
				default: 0,
				typeOptions: { minValue: 0, maxValue: 5000 },
				description:
					"Posts arriving within this many milliseconds of the first start one execution together (one item per event, up to 500) instead of one each: for a campaign's reports, which come one per message and status. Each post gets the answer n8n gives the first of them (n8n 2: once the execution started). 0 starts one execution per post.",
			},
			{
				displayName: 'Secret Presented As',
				name: 'secretIn',
				type: 'options',
				default: 'any',
				description:
					'Where posts carry the secret. SMSLeopard does not document it: Any accepts each of the ways below.',
				options: [
					{ name: 'Any', value: 'any' },
					{
						name: 'Body Field',
						value: 'bodyField',
						description: 'For example status_secret, secret or token',
					},
					{
						name: 'Header',
						value: 'header',
						description: 'X-Status-Secret, X-Webhook-Secret, X-Secret or Authorization: Bearer',
					},
					{
						name: 'Query Parameter',
						value: 'query',
						description: 'Secret=… added to the URL you gave SMSLeopard',
					},
					{
						name: 'Signature',
						value: 'signature',
						description: 'X-Hub-Signature-256: an HMAC-SHA256 of the body with the secret',
					},
				],
			},
		],
	},
];

/** The canvas subtitle's words for each event, short and plural: "SMS delivery reports". */
const SUBTITLE_WORDS: Record<string, string> = {
	smsDeliveryReport: 'SMS delivery reports',
	smsMessage: 'SMS messages',
	whatsappMessage: 'WhatsApp messages',
	whatsappStatus: 'WhatsApp statuses',
	unrecognised: 'other posts',
};

/**
 * The canvas subtitle in words, never the values ("smsDeliveryReport"): n8n evaluates it as an
 * expression, so the words are looked up from a table in it; every event is "All events".
 */
export const triggerSubtitle = `={{ $parameter["events"].length >= ${Object.keys(SUBTITLE_WORDS).length} ? "All events" : $parameter["events"].map((event) => (${JSON.stringify(SUBTITLE_WORDS)})[event] || event).join(", ") }}`;
