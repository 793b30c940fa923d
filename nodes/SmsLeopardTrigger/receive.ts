/**
 * One post to the trigger: 401 without the secret (a warn line in n8n's log and, with Report
 * Refused Posts, at most one execution a minute per reason on the Refused Posts output);
 * otherwise one output item per event kept by the filters, each with the body as received beside
 * it (the secret removed), and 200 with an empty body. A post whose events are all filtered out
 * gets the same 200 and starts nothing.
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
import { type StatusFilter, keptEvents, repeatKey } from './event-filters';
import { gather, onLeaderAnswered } from './gather';
import { unsee } from './repeats';
import { logRefusal } from './refusal-log';
import { claimReport, refusedPostItem } from './refusal-report';
import { triggerSecret } from './trigger-secret';

function refuse(context: IWebhookFunctions, code: number, message: string): IWebhookResponseData {
	const response = context.getResponseObject();
	response.status(code).json({ message });
	return { noWebhookResponse: true };
}

function answered(context: IWebhookFunctions, code: number): IWebhookResponseData {
	context.getResponseObject().status(code).end();
	return { noWebhookResponse: true };
}

type N8nRequest = ReturnType<IWebhookFunctions['getRequestObject']> & {
	rawBody?: Buffer;
	readRawBody?: () => Promise<void>;
};

/**
 * The post as version 1 read it, at every version. n8n reads and parses the body of a version 1
 * node whatever its content type, but of a later version only for JSON, text, form and XML
 * (webhook-helpers' parseRequestBody): a report posted as application/octet-stream, or with no
 * content type, reaches version 2 unread. n8n leaves `readRawBody` on the request for that case.
 */
async function requestOf(context: IWebhookFunctions): Promise<WebhookRequest> {
	const request = context.getRequestObject() as N8nRequest;
	if (request.rawBody === undefined && typeof request.readRawBody === 'function') {
		await request.readRawBody();
	}
	// n8n keeps a body of another content type only as raw bytes: parsed here as a text body.
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
		countryCode?: string;
		dropRepeats?: boolean;
		gatherMs?: number;
		secretIn?: SecretPresentation;
	};
	const request = await requestOf(context);
	const verdict = checkSecret(request, secret, options.secretIn ?? 'any');
	if (verdict !== 'accepted') {
		const reason = secret === '' ? 'noSecretSet' : verdict;
		const workflow = context.getWorkflow();
		logRefusal(context.logger, {
			trigger,
			reason,
			setIn,
			workflowId: String(workflow.id ?? ''),
			workflowName: workflow.name ?? '',
			nodeName: context.getNode().name,
		});
		// The same answer whatever was wrong: nothing tells a prober how close it came.
		const answer = refuse(context, 401, 'This post does not carry the SMSLeopard Trigger secret');
		if (context.getNodeParameter('reportRefusedPosts', true) === false) return answer;
		const claim = claimReport(context, trigger, reason);
		if (!claim.report) return answer;
		const item = refusedPostItem({
			reason,
			setIn,
			presentation: options.secretIn ?? 'any',
			request,
			unreported: claim.unreported,
		});
		return { ...answer, workflowData: [[], [{ json: item }]] };
	}
	const events = keptEvents(readWebhookEvents(request.body, { countryCode: options.countryCode }), {
		kinds: context.getNodeParameter('events', []) as string[],
		statuses: context.getNodeParameter('statuses', 'all') as StatusFilter,
		dropRepeats: options.dropRepeats !== false,
		trigger,
	});
	// 200 with an empty body, as for a post that starts the workflow (responseData: noData).
	if (events.length === 0) return answered(context, 200);
	const receivedAt = new Date().toISOString();
	const { body, bodyNote } = keptBody(request.body, secret, request.rawBody);
	const items = events.map((event) => ({
		json: {
			...(event as IDataObject),
			receivedAt,
			body: body as IDataObject,
			...(bodyNote ? { bodyNote } : {}),
		},
	}));
	// A post whose execution did not start is posted again: that repeat must not be dropped.
	const keys = events.map(repeatKey).filter((key): key is string => key !== null);
	const notTaken = (status: 200 | 503) => {
		if (status === 503) unsee(trigger, keys);
	};
	const response = context.getResponseObject();
	const gatherMs = Number(options.gatherMs ?? 0);
	// "Listen for test event" takes one post: nothing to gather.
	if (!(gatherMs > 0) || context.getMode() === 'manual') {
		onLeaderAnswered(response, [notTaken]);
		return { workflowData: [items] };
	}
	const gathered = await gather(trigger, items, gatherMs, (status) => {
		notTaken(status);
		if (status === 200) response.status(200).end();
		else
			response.status(503).json({
				message: 'The execution gathering this post did not start; post it again',
			});
	});
	if (gathered.role === 'follower') return { noWebhookResponse: true };
	onLeaderAnswered(response, [notTaken, ...gathered.followers]);
	return { workflowData: [gathered.items] };
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
