/** The fields of "From the Template": what the chosen template needs, in the user's words. */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';
import { newExecutionState } from '../actions/operation';
import { templateFields } from '../helpers/template-fields';
import { templateFor } from '../helpers/template-lookup';
import { clientForNode } from '../transport/client-for-node';

export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const phoneNumberId = this.getNodeParameter('senderNumber', '', { extractValue: true }) as string;
	const templateId = this.getNodeParameter('template', '', { extractValue: true }) as string;
	if (!phoneNumberId || !templateId) {
		return { fields: [], emptyFieldsNotice: 'Choose a sender number and a template first.' };
	}
	const state = newExecutionState(await clientForNode(this));
	const template = await templateFor(state, String(phoneNumberId), String(templateId));
	if (!template) {
		return {
			fields: [],
			emptyFieldsNotice:
				'The template list is not available for this account: use "Define Below" or "Using JSON".',
		};
	}
	return {
		fields: templateFields(template),
		emptyFieldsNotice: `Template "${template.name}" has no variables: it is sent as approved.`,
	};
}
