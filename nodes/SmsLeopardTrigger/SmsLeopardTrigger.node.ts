import {
	type IHookFunctions,
	type INodeType,
	type INodeTypeDescription,
	type IWebhookFunctions,
	type IWebhookResponseData,
	NodeConnectionTypes,
} from 'n8n-workflow';
import { triggerProperties, triggerSubtitle } from './description';
import { receive, verifySubscription } from './receive';
import { forgetGathering } from './gather';
import { forget } from './repeats';
import { forgetRefusals } from './refusal-log';
import { forgetReports } from './refusal-report';

const EVENTS_ONLY = [{ type: NodeConnectionTypes.Main, displayName: 'Events' }];
const WITH_REFUSED = [
	...EVENTS_ONLY,
	{ type: NodeConnectionTypes.Main, displayName: 'Refused Posts' },
];

/**
 * SMSLeopard Trigger: delivery reports of SMS sent with a Delivery Report URL, and WhatsApp events
 * (inbound messages, quick-reply taps, message statuses) posted to the URL set in the account.
 * Only posts carrying the secret start the workflow; the others get 401 (and, with Report Refused
 * Posts, an execution on the second output, at most one a minute per reason). Version 2 takes the secret
 * from the SMSLeopard API credential (encrypted by n8n); version 1 from its own Secret field.
 */
export class SmsLeopardTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SMSLeopard Trigger',
		name: 'smsLeopardTrigger',
		icon: { light: 'file:smsleopard.svg', dark: 'file:smsleopard.dark.svg' },
		group: ['trigger'],
		// 2: the secret moved to the credential (trigger-secret.ts); saved version 1 triggers keep theirs.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: triggerSubtitle,
		description:
			'Starts the workflow when SMSLeopard reports an SMS delivery or a WhatsApp message, reply or status',
		documentationUrl:
			'https://github.com/n8n-nodes-smsleopard/n8n-nodes-smsleopard#smsleopard-trigger',
		defaults: { name: 'SMSLeopard Trigger' },
		inputs: [],
		// Refused Posts only while Report Refused Posts is on (also for workflows saved before it).
		outputs: `={{ $parameter.reportRefusedPosts === false ? ${JSON.stringify(EVENTS_ONLY)} : ${JSON.stringify(WITH_REFUSED)} }}`,
		credentials: [
			{ name: 'smsLeopardApi', required: true, displayOptions: { show: { '@version': [2] } } },
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// An empty 200 once the execution is started; without it n8n answers the literal
				// text "firstEntryJson" (its default, meant for a node with a Response Data field).
				responseData: 'noData',
				path: 'smsleopard',
			},
			// Meta-style subscription check (hub.challenge), for a provider that forwards Meta's setup.
			{ name: 'setup', httpMethod: 'GET', responseMode: 'onReceived', path: 'smsleopard' },
		],
		properties: triggerProperties,
	};

	/**
	 * SMSLeopard has no API to register a webhook: the URL travels with each Send SMS (its
	 * Delivery Report URL) or is pasted into the account's webhook setting. What activation can do
	 * is done here: note the trigger as set up, and start (or, on deactivation, drop) the memory of
	 * reports already seen, so a workflow activated again does not drop a report as a repeat.
	 */
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return this.getWorkflowStaticData('node').setUpFor === this.getNodeWebhookUrl('default');
			},
			async create(this: IHookFunctions): Promise<boolean> {
				forget(triggerKey(this));
				forgetRefusals(triggerKey(this));
				forgetReports(triggerKey(this));
				this.getWorkflowStaticData('node').setUpFor = this.getNodeWebhookUrl('default');
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				forget(triggerKey(this));
				forgetRefusals(triggerKey(this));
				forgetReports(triggerKey(this));
				forgetGathering(triggerKey(this));
				delete this.getWorkflowStaticData('node').setUpFor;
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		if (this.getWebhookName() === 'setup') return await verifySubscription(this);
		return await receive(this, triggerKey(this));
	}
}

/** The trigger's key in the repeat memory: its workflow and node. */
function triggerKey(context: IHookFunctions | IWebhookFunctions): string {
	const node = context.getNode();
	return `${context.getWorkflow().id ?? ''}:${node.id ?? node.name}`;
}
