/**
 * The template an item sends, described, so it can be checked before sending. Listed once per
 * sender per execution. The listing is SMSLeopard's own (docs/api.md "Template listing"): when the
 * account has none the send goes ahead unchecked and the service has the last word. A listing that
 * failed is never kept: the next item asks again, so one passing outage cannot wave the rest of the
 * run through unchecked.
 */
import { SmsLeopardValidationError, type TemplateDescription } from '../../client';
import type { ExecutionState } from '../../helpers/execution-state';
import { echo } from '../../client/echo';

/** The sender's listed templates by id; undefined when the account has no listing. */
async function listing(
	state: ExecutionState,
	phoneNumberId: string,
): Promise<Map<string, TemplateDescription> | undefined> {
	return await state.once.get(
		'templates',
		phoneNumberId,
		async () => await state.client.templateCatalog(phoneNumberId),
	);
}

/** Every template the sender lists (the same listing as `templateFor`, read once). */
export async function templatesOf(
	state: ExecutionState,
	phoneNumberId: string,
): Promise<TemplateDescription[]> {
	return [...((await listing(state, phoneNumberId))?.values() ?? [])];
}

export async function templateFor(
	state: ExecutionState,
	phoneNumberId: string,
	templateId: string,
): Promise<TemplateDescription | undefined> {
	const templates = await listing(state, phoneNumberId);
	if (!templates) return undefined;
	const template = templates.get(templateId);
	if (!template) {
		const known = [...templates.values()]
			.filter((item) => item.approved)
			.map((item) => `${item.name} (${item.id})`);
		throw new SmsLeopardValidationError([
			{
				field: 'templateId',
				message: `"${echo(templateId)}" is not a template of sender ${phoneNumberId}: pick one from the list${known.length ? ` (approved: ${known.slice(0, 10).join(', ')})` : ''}`,
			},
		]);
	}
	// A template listed with odd fields (a status of 1, a body that is not text) cannot be checked
	// fairly: refusing it as "not approved" or approving a body never read would both be guesses. It
	// goes unchecked, as with an account that has no listing, and the service has the last word.
	return template.notes ? undefined : template;
}
