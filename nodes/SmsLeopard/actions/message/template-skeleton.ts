/**
 * "Using JSON" starts from the chosen template's own component_list, its values left empty: the
 * names (`1`, `url:0`, `quick_reply:1`) are what the template needs, built as a send would build them.
 */
import { type TemplateDescription, buildComponentList } from '../../client';
import { templateFields, variablesFromMappedValues } from './template-fields';

export function templateSkeleton(template: TemplateDescription): string {
	// Any text stands in for the values while the list is built; the skeleton shows them empty.
	const standIn = Object.fromEntries(templateFields(template).map((field) => [field.id, 'value']));
	const built = buildComponentList(variablesFromMappedValues(standIn));
	return JSON.stringify({
		components: built.components.map((component) => ({
			component_type: component.component_type,
			fields: component.fields.map((field) => ({ name: field.name, value: '' })),
		})),
	});
}
