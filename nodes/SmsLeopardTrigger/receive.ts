/**
 * One post to the trigger: 401 without the secret (no execution, a warn line in n8n's log);
 * otherwise one output item per event kept by the filters, each with the body as received beside
 * it (the secret removed), and 200 at once. A post whose events are all filtered out gets 200 and
 * starts nothing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import {
	type SecretPresentation,
	type WebhookRequest,
	checkSecret,
	keptBody,
	matchesSecret,
	parseWebhookBody,
	readWebhookEvents,
} from '../SmsLeopard/client';
import { type StatusFilter, keptEvents } from './event-filters';
import { logRefusal } from './refusal-log';
import { triggerSecret } from './trigger-secret';

function refuse(context: IWebhookFunctions, code: number, message: string): IWebhookResponseData {
	const response = context.getResponseObject();
	response.status(code).json({ message });
	return { noWebhookResponse: true };
}

function requestOf(context: IWebhookFunctions): WebhookRequest {
	const request = context.getRequestObject() as ReturnType<
		IWebhookFunctions['getRequestObject']
	> & {
		rawBody?: Buffer;
	};
	// n8n parses JSON, text, form and XML bodies and keeps any other only as raw bytes: a report
	// posted as application/octet-stream, or with no content type, is parsed here as a text body.
	const parsed = context.getBodyData();
	const unparsed = Object.keys(parsed ?? {}).length === 0 && (request.rawBody?.length ?? 0) > 0;
	return {
		// Parsed once here (a JSON or form text in a text body): the secret check, the reader and
		// the kept body all read this.
		body: parseWebhookBody(unparsed ? request.rawBody : parsed),
		headers: context.getHeaderData() as WebhookRequest['headers'],
		query: context.getQueryData() as Record<string, unknown>,
		rawBody: request.rawBody,
	};
}

export async function receive(
	context: IWebhookFunctions,
	trigger: string,
): Promise<IWebhookResponseData> {
	const { secret, setIn } = await triggerSecret(context);
	const options = context.getNodeParameter('options', {}) as {
		dropRepeats?: boolean;
		secretIn?: SecretPresentation;
	};
	const request = requestOf(context);
	const verdict = checkSecret(request, secret, options.secretIn ?? 'any');
	if (verdict !== 'accepted') {
		logRefusal(context.logger, {
			trigger,
			reason: secret === '' ? 'noSecretSet' : verdict,
			setIn,
			workflowId: String(context.getWorkflow().id ?? ''),
			nodeName: context.getNode().name,
		});
		// The same answer whatever was wrong: nothing tells a prober how close it came.
		return refuse(context, 401, 'This post does not carry the SMSLeopard Trigger secret');
	}
	const events = keptEvents(readWebhookEvents(request.body), {
		kinds: context.getNodeParameter('events', []) as string[],
		statuses: context.getNodeParameter('statuses', 'all') as StatusFilter,
		dropRepeats: options.dropRepeats !== false,
		trigger,
	});
	if (events.length === 0) return {};
	const receivedAt = new Date().toISOString();
	const { body, bodyNote } = keptBody(request.body, secret, request.rawBody);
	return {
		workflowData: [
			events.map((event) => ({
				json: {
					...(event as IDataObject),
					receivedAt,
					body: body as IDataObject,
					...(bodyNote ? { bodyNote } : {}),
				},
			})),
		],
	};
}

/**
 * GET to the trigger's URL: Meta's subscription check (hub.mode, hub.verify_token = the secret,
 * hub.challenge echoed), for a provider that forwards Meta's webhook setup. Starts nothing.
 */
export async function verifySubscription(
	context: IWebhookFunctions,
): Promise<IWebhookResponseData> {
	const query = context.getQueryData() as Record<string, unknown>;
	const { secret } = await triggerSecret(context);
	if (query['hub.mode'] !== 'subscribe' || !matchesSecret(query['hub.verify_token'], secret)) {
		return refuse(context, 401, 'This request does not carry the SMSLeopard Trigger secret');
	}
	const response = context.getResponseObject();
	response.status(200).send(String(query['hub.challenge'] ?? ''));
	return { noWebhookResponse: true };
}
