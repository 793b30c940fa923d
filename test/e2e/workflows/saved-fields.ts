/**
 * Values to Send as the editor of this version saves them: the template's fields (its schema) and
 * the values under their ids (`body_1` given here is saved as `body_1_t<tag>`). A workflow that
 * opens in the editor needs both: without the field list n8n asks the node for it, and when a
 * value is an expression it cannot resolve yet, the node gives today's ids and n8n drops the values.
 */
import {
	describeTemplate,
	type Template,
} from '../../../nodes/SmsLeopard/client/whatsapp/templates';
import {
	fieldsOfVersion,
	templateFields,
} from '../../../nodes/SmsLeopard/actions/message/template-fields';

/** `typeVersion`: the node's version, whose editor offers its own fields (1 unless said). */
export function savedTemplateFields(
	template: unknown,
	values: Record<string, string>,
	typeVersion = 1,
) {
	const fields = templateFields(describeTemplate(template as Template));
	const schema = fieldsOfVersion(fields, typeVersion).map((field) => ({
		...field,
		removed: false,
	}));
	const idOf = (base: string) =>
		schema.find((field) => field.id.replace(/_t[0-9a-f]{8}$/, '') === base)?.id ?? base;
	return {
		mappingMode: 'defineBelow',
		value: Object.fromEntries(Object.entries(values).map(([base, value]) => [idOf(base), value])),
		matchingColumns: [],
		schema,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}
