/**
 * The "From List" pickers: sender numbers (shown as the number with its phone_number_id, valued by
 * the phone_number_id) and the approved templates of the chosen sender (name, language, category,
 * and what each needs: header kind, variables, buttons).
 */
import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { describeTemplate, senderRecordId } from '../client';
import { clientForNode } from '../transport/client-for-node';
import { templateListName } from './template-summary';

function matches(filter: string | undefined, ...texts: Array<string | undefined | null>): boolean {
	if (!filter) return true;
	const wanted = filter.trim().toLowerCase();
	return texts.some((text) => (text ?? '').toLowerCase().includes(wanted));
}

export async function searchSenderNumbers(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const client = await clientForNode(this);
	const senders = await client.listSenderNumbers();
	return {
		// A sender whose phone_number_id the answer did not give usably cannot be picked.
		results: senders.flatMap((sender) =>
			sender.phone_number_id && matches(filter, sender.phone_number, sender.phone_number_id)
				? [
						{
							name: `${sender.phone_number ?? 'Sender ' + sender.id} (phone number ID ${sender.phone_number_id})`,
							value: sender.phone_number_id,
						},
					]
				: [],
		),
	};
}

export async function searchTemplates(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const phoneNumberId = this.getCurrentNodeParameter('senderNumber', { extractValue: true }) as
		string | undefined;
	if (!phoneNumberId) return { results: [] };
	const client = await clientForNode(this);
	const sender = await client.findSenderNumber(phoneNumberId);
	const templates = (await client.listTemplates(senderRecordId(sender))).map(describeTemplate);
	return {
		results: templates
			.filter((template) => template.approved && template.id !== '')
			.map((template) => ({ template, name: templateListName(template) }))
			// The search finds what a template needs too: "document", "url button", "quick repl".
			.filter(({ template, name }) => matches(filter, name, template.id))
			.map(({ template, name }) => ({ name, value: template.id })),
	};
}
