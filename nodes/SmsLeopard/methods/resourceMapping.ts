/** The fields of "From the Template": what the chosen template needs, in the user's words. */
import type { ILoadOptionsFunctions, ResourceMapperFields } from 'n8n-workflow';
import { newExecutionState } from '../helpers/execution-state';
import {
	SmsLeopardValidationError,
	type TemplateDescription,
	headerMediaCategory,
} from '../client';
import { fieldsOfVersion, templateFields } from '../actions/message/template-fields';
import { type MappedFields, savedIdsFitting } from '../actions/message/fields-of-template';
import { parseFieldId } from '../actions/message/field-ids';
import { templateSkeleton } from '../actions/message/template-skeleton';
import { templateFor } from '../actions/message/template-lookup';
import { clientForNode } from '../transport/client-for-node';

const NOT_OF_SENDER = 'not-of-sender' as const;

/** What the picker shows for a chosen value (its cached name), else the value itself. */
function shownName(context: ILoadOptionsFunctions, parameter: string, value: string): string {
	const picked = context.getNodeParameter(parameter, {}) as { cachedResultName?: unknown };
	return typeof picked?.cachedResultName === 'string' && picked.cachedResultName
		? picked.cachedResultName
		: value;
}

/** The chosen template, or what the editor should say instead (never "no variables" by mistake). */
async function chosenTemplate(
	context: ILoadOptionsFunctions,
): Promise<{ template: TemplateDescription } | { notice: string }> {
	const phoneNumberId = context.getNodeParameter('senderNumber', '', {
		extractValue: true,
	}) as string;
	const templateId = context.getNodeParameter('template', '', { extractValue: true }) as string;
	if (!phoneNumberId) return { notice: 'Choose a sender number and a template first.' };
	if (!templateId) {
		return {
			notice:
				'Choose a template of this sender from the list. Changing the sender clears the template and the values typed for it, since each sender has its own templates.',
		};
	}
	const state = newExecutionState(await clientForNode(context));
	// A template that is not the sender's: typically the sender was changed after the template was
	// chosen. Say so, never "no variables". Other failures reach the editor as they are.
	const template = await templateFor(state, String(phoneNumberId), String(templateId)).catch(
		async (error: unknown) =>
			error instanceof SmsLeopardValidationError ? NOT_OF_SENDER : await Promise.reject(error),
	);
	if (template === NOT_OF_SENDER) {
		return {
			notice: `The template chosen before, ${shownName(context, 'template', templateId)}, is not an approved template of sender ${shownName(context, 'senderNumber', phoneNumberId)}: choose the template again from the list.`,
		};
	}
	if (!template) {
		return {
			notice:
				'The template list is not available for this account: use "Define Below" or "Using JSON".',
		};
	}
	return { template };
}

/**
 * The template's fields, under the ids its saved values have while they were mapped for this
 * template and its texts (an earlier version's `body_2`, or an earlier tag), so opening or
 * refreshing keeps them: n8n drops a value whose id the field list lacks. Values mapped for
 * another template or text, or that the editor could not send, get today's ids, and n8n drops
 * them: a value is lost rather than sent into another text.
 */
function fieldsKeepingSavedIds(context: ILoadOptionsFunctions, template: TemplateDescription) {
	// As the editor sent them, unresolved here: n8n gives null for a parameter it could not resolve
	// (a value from a node that has not run), and then today's ids are given, never old ones.
	const saved = context.getCurrentNodeParameters()?.templateFields as MappedFields | null;
	const kept =
		typeof saved === 'object' && saved !== null ? savedIdsFitting(saved, template) : new Map();
	// Before 1.3 the document's file name is Document File Name below, never a second field here.
	return fieldsOfVersion(templateFields(template), context.getNode().typeVersion).map((field) => {
		const base = parseFieldId(field.id)?.base ?? field.id;
		return { ...field, id: kept.get(base) ?? field.id };
	});
}

export async function getTemplateFields(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const chosen = await chosenTemplate(this);
	if ('notice' in chosen) return { fields: [], emptyFieldsNotice: chosen.notice };
	const media = headerMediaCategory(chosen.template);
	return {
		fields: fieldsKeepingSavedIds(this, chosen.template),
		emptyFieldsNotice: media
			? `Template "${chosen.template.name}" has no variables to fill in; its ${media} header is set under Header Media below.`
			: `Template "${chosen.template.name}" has nothing to fill in: it is sent as approved.`,
	};
}

/** For "Using JSON": the chosen template's component_list with empty values, shown as a notice. */
export async function getTemplateSkeleton(
	this: ILoadOptionsFunctions,
): Promise<ResourceMapperFields> {
	const chosen = await chosenTemplate(this);
	if ('notice' in chosen) return { fields: [], emptyFieldsNotice: chosen.notice };
	const skeleton = templateSkeleton(chosen.template);
	return {
		fields: [],
		emptyFieldsNotice: skeleton.includes('"fields"')
			? `Start from template "${chosen.template.name}": copy this into Components (JSON) and fill in each value. ${skeleton}`
			: `Template "${chosen.template.name}" has nothing to fill in: leave Components (JSON) as {"components": []}.`,
	};
}
