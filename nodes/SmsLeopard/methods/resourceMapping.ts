/** The fields of "From the Template": what the chosen template needs, in the user's words. */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';
import { newExecutionState } from '../actions/operation';
import { SmsLeopardValidationError } from '../client';
import { templateFields } from '../helpers/template-fields';
import { templateFor } from '../helpers/template-lookup';
import { clientForNode } from '../transport/client-for-node';

const NOT_OF_SENDER = 'not-of-sender' as const;

export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const phoneNumberId = this.getNodeParameter('senderNumber', '', { extractValue: true }) as string;
	const templateId = this.getNodeParameter('template', '', { extractValue: true }) as string;
	if (!phoneNumberId || !templateId) {
		return { fields: [], emptyFieldsNotice: 'Choose a sender number and a template first.' };
	}
	const state = newExecutionState(await clientForNode(this));
	// A template that is not the sender's: typically the sender was changed after the template was
	// chosen. Say so, never "no variables". Other failures reach the editor as they are.
	const template = await templateFor(state, String(phoneNumberId), String(templateId)).catch(
		async (error: unknown) =>
			error instanceof SmsLeopardValidationError ? NOT_OF_SENDER : await Promise.reject(error),
	);
	if (template === NOT_OF_SENDER) {
		return {
			fields: [],
			emptyFieldsNotice: `The chosen template (${templateId}) is not one of sender ${phoneNumberId}'s approved templates: choose the template again from the list.`,
		};
	}
	if (!template) {
		return {
			fields: [],
			emptyFieldsNotice:
				'The template list is not available for this account: use "Define Below" or "Using JSON".',
		};
	}
	return {
		fields: templateFields(template),
		emptyFieldsNotice: `Template "${template.name}" has nothing to fill in: it is sent as approved.`,
	};
}
