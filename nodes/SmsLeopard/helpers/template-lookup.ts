/**
 * The template an item sends, described, so it can be checked before sending. Listed once per sender
 * per execution. The listing is not in the specification: when it is unavailable the send goes ahead
 * unchecked and the service has the last word.
 */
import {
	SmsLeopardAuthenticationError,
	type SmsLeopardClient,
	SmsLeopardValidationError,
	type TemplateDescription,
	describeTemplate,
} from '../client';
import type { ExecutionState } from '../actions/operation';
import { findSender } from './senders';

async function listDescribed(
	client: SmsLeopardClient,
	phoneNumberId: string,
): Promise<Map<string, TemplateDescription> | undefined> {
	try {
		const sender = await findSender(client, phoneNumberId);
		const templates = await client.listTemplates(sender.id);
		return new Map(templates.map((template) => [template.id, describeTemplate(template)]));
	} catch (error) {
		if (
			error instanceof SmsLeopardValidationError ||
			error instanceof SmsLeopardAuthenticationError
		)
			throw error;
		return undefined;
	}
}

export async function templateFor(
	state: ExecutionState,
	phoneNumberId: string,
	templateId: string,
): Promise<TemplateDescription | undefined> {
	let listing = state.templates.get(phoneNumberId);
	if (!listing) {
		listing = listDescribed(state.client, phoneNumberId);
		state.templates.set(phoneNumberId, listing);
		listing.catch(() => state.templates.delete(phoneNumberId));
	}
	const templates = await listing;
	if (!templates) return undefined;
	const template = templates.get(templateId);
	if (!template) {
		const known = [...templates.values()]
			.filter((item) => item.approved)
			.map((item) => `${item.name} (${item.id})`);
		throw new SmsLeopardValidationError([
			{
				field: 'templateId',
				message: `"${templateId}" is not a template of sender ${phoneNumberId}: pick one from the list${known.length ? ` (approved: ${known.slice(0, 10).join(', ')})` : ''}`,
			},
		]);
	}
	return template;
}
