/**
 * The template an item sends, described, so it can be checked before sending. Listed once per
 * sender per execution, and kept for later executions for the age Request Options > Keep Listings
 * sets (helpers/run-listings.ts). The listing is SMSLeopard's own (docs/api.md "Template listing"):
 * when the account has none the send goes ahead unchecked and the service has the last word. A
 * listing that failed, or that the account does not offer, is never kept: the next item asks again,
 * so one passing outage cannot wave the rest of the run through unchecked.
 *
 * A kept listing can be older than a change in the dashboard, so it never has the last word on its
 * own: an item it would refuse is checked again against a fresh listing (checkedAgainstFreshListing),
 * and a send the service refuses drops it (sendDroppingListingOnRefusal).
 */
import {
	type PreparedTemplateMessage,
	type SendTemplateResult,
	SmsLeopardValidationError,
	type TemplateDescription,
} from '../../client';
import type { ExecutionState } from '../../helpers/execution-state';
import { echo } from '../../client/http/echo';
import { type Settled, settle } from '../../client/http/settle';
import { refutesKeptListing } from '../../helpers/run-listings';

type Catalog = Map<string, TemplateDescription> | undefined;

const catalogOf = (state: ExecutionState, phoneNumberId: string) => ({
	fetch: async (): Promise<Catalog> => await state.client.templateCatalog(phoneNumberId),
	// An account without a listing (undefined) is asked again next time, like a failure.
	keep: (catalog: Catalog) => catalog !== undefined,
});

/** The sender's listed templates by id (kept or fresh); undefined when the account has none. */
async function listing(state: ExecutionState, phoneNumberId: string): Promise<Catalog> {
	const { fetch, keep } = catalogOf(state, phoneNumberId);
	return (await state.listings.get('templates', phoneNumberId, fetch, keep)).value;
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

/**
 * Runs an item's check. When the check refuses the item against a listing kept by an earlier
 * execution, or changed what is sent to fit it (a whole URL cut to the button's placeholder part),
 * the sender's templates are listed again (once per execution) and the item checked once more, so
 * a template approved or edited since is judged by what it is now.
 */
export async function checkedAgainstFreshListing<T extends { message: PreparedTemplateMessage }>(
	state: ExecutionState,
	phoneNumberId: string,
	check: () => Promise<T>,
): Promise<T> {
	const first = await settle(check);
	if (first.ok && first.value.message.fittedToTemplate !== true) return first.value;
	if (!first.ok && !(first.error instanceof SmsLeopardValidationError)) throw first.error;
	const { fetch, keep } = catalogOf(state, phoneNumberId);
	const used = await settle(
		async () => await state.listings.get('templates', phoneNumberId, fetch, keep),
	);
	if (!used.ok || !used.value.kept) return outcomeOf(first);
	await state.listings.fresh('templates', phoneNumberId, fetch, keep);
	return await check();
}

function outcomeOf<T>(settled: Settled<T>): T {
	if (settled.ok) return settled.value;
	throw settled.error;
}

/**
 * Sends a checked message. A send the service refuses (400 or 404: a template removed, no longer
 * approved, or with other fields than the kept listing said) drops the sender's kept listing, so
 * the next execution checks against what the account lists now.
 */
export async function sendDroppingListingOnRefusal(
	state: ExecutionState,
	phoneNumberId: string,
	message: PreparedTemplateMessage,
): Promise<SendTemplateResult> {
	const sent = await settle(async () => await state.client.sendPreparedTemplate(message));
	if (sent.ok) return sent.value;
	if (refutesKeptListing(sent.error)) state.listings.forget('templates', phoneNumberId);
	throw sent.error;
}
