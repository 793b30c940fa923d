// The chat host: send, media upload, and the sender and template listings
// (docs/api.md "Sender numbers", "Template listing").
import { randomBytes } from 'node:crypto';
import { postWhatsAppEvent } from './callbacks';
import type { SandboxContext } from './context';
import { shapeSendAnswer } from './send-answers';
import { readJson } from './json-body';
import { handleMediaUpload } from './media-upload';
import { validateSend } from './send-rules';
import { senderByRecordId } from './senders';
import type { Exchange, HostDefinition } from './server';

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function nextMessageId(ctx: SandboxContext): string {
	// WhatsApp-style id; the sequence makes it unique, the random tail makes it opaque.
	ctx.sequences.message += 1;
	const seq = ctx.sequences.message.toString(16).padStart(8, '0');
	return `wamid.SBX${seq}${randomBytes(6).toString('hex').toUpperCase()}`;
}

async function handleSend(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const body = await readJson(ex);
	if (!body.ok) return ex.fail(body.problem);
	ex.record.body = body.value;
	const plan = validateSend(body.value, ctx.state, ctx.options.channel);
	if (!plan.ok) return ex.fail(plan.problem);
	const { destination, template, sender, mediaId, fileName } = plan.value;
	const id = nextMessageId(ctx);
	ctx.state.sentMessages.push({
		id,
		destination,
		templateId: template.id,
		phoneNumberId: sender.phone_number_id,
		componentList: plan.value.componentList,
		...(mediaId !== undefined && { mediaId }),
		...(fileName !== undefined && { fileName }),
		at: Date.now(),
	});
	const counts = ctx.state.sendCountByDestination;
	counts[destination] = (counts[destination] ?? 0) + 1;
	postStatuses(ctx, id, destination, sender.phone_number_id);
	// Success status is "not shown" in the spec; 200 like the provider's other JSON answers.
	const entries = [{ id, cost: 0.8, number: destination, status: 'Success' }];
	return ex.reply(200, { recipients: shapeSendAnswer(entries, ctx.options.sendAnswers) });
}

/** With a WhatsApp webhook URL set: "sent" at once, "delivered" after smsDeliveryMs. */
function postStatuses(
	ctx: SandboxContext,
	id: string,
	destination: string,
	phoneNumberId: string,
): void {
	const url = ctx.options.whatsappWebhookUrl;
	if (!url) return;
	const secret = ctx.options.whatsappWebhookSecret ?? '';
	const stages: Array<[number, string]> = [
		[0, 'sent'],
		[ctx.options.smsDeliveryMs, 'delivered'],
	];
	for (const [delay, status] of stages) {
		ctx.callbacks.later(delay, async () => {
			await postWhatsAppEvent(ctx.callbacks, url, secret, {
				messaging_product: 'whatsapp',
				metadata: { phone_number_id: phoneNumberId },
				statuses: [
					{
						id,
						status,
						timestamp: String(Math.floor(Date.now() / 1000)),
						recipient_id: destination.replace(/^\+/, ''),
					},
				],
			});
		});
	}
}

export function chatHost(channel: string): HostDefinition {
	const ch = escapeRegExp(channel);
	return {
		host: 'chat',
		routes: [
			{
				pattern: /^\/v1\/phone_number_ids$/,
				methods: {
					GET: async (ex, ctx) => {
						if (!ctx.options.noSenderListing) return ex.reply(200, ctx.state.senders);
						const message = `No endpoint ${ex.record.path} (sandbox noSenderListing)`;
						return ex.fail({ status: 404, code: 'not_found', message });
					},
				},
			},
			{
				pattern: /^\/v1\/phone_number_ids\/([^/]+)\/templates$/,
				methods: {
					GET: async (ex, ctx) => {
						if (ctx.options.noTemplateListing) {
							const message = `No endpoint ${ex.record.path} (sandbox noTemplateListing)`;
							return ex.fail({ status: 404, code: 'not_found', message });
						}
						if (ctx.options.templateListingFailures > 0) {
							ctx.options.templateListingFailures -= 1;
							const message = 'Template listing unavailable (sandbox templateListingFailures)';
							return ex.fail({ status: 503, code: 'service_unavailable', message });
						}
						const sender = senderByRecordId(ctx.state, ex.params[0]);
						if (!sender.ok) return ex.fail(sender.problem);
						return ex.reply(200, ctx.state.templates[sender.value.id] ?? []);
					},
				},
			},
			{ pattern: new RegExp(`^/v1/${ch}/send$`), methods: { POST: handleSend } },
			{ pattern: new RegExp(`^/v1/${ch}/media$`), methods: { POST: handleMediaUpload } },
		],
		notFoundMessage(path) {
			if (/^\/v1\/(contacts|groups|sms|delivery_reports|balance)\b/.test(path)) {
				return `${path} is a contacts endpoint: it lives on the contacts host ({base_url}), not the chat host`;
			}
			const other = /^\/v1\/([^/]+)\/(send|media)$/.exec(path);
			if (other) {
				return `Unknown channel '${other[1]}' in ${path}; this host serves channel '${channel}' (/v1/${channel}/${other[2]})`;
			}
			return `No endpoint ${path} on the chat host; it serves POST /v1/${channel}/send, POST /v1/${channel}/media, GET /v1/phone_number_ids and GET /v1/phone_number_ids/{id}/templates`;
		},
	};
}
