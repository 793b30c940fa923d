/**
 * docs/api.md "Template send rules", rule 3: a URL button takes only the value that replaces its
 * placeholder, unless the placeholder is the whole URL. A whole URL pasted by mistake is cut to
 * that value when it starts with the button's fixed part exactly (the link the recipient gets is
 * the same); any other URL is refused, since the recipient would get a broken link.
 */
import { parseButtonName } from './button-names';
import type { ComponentList } from './components';
import { echo } from '../http/echo';
import type { FieldIssue } from '../http/errors';
import { buttonNamed } from './template-rules';
import type { TemplateDescription } from './templates';

const WHOLE_URL = /^https?:\/\//i;
const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/;

export interface FittedButtons {
	componentList: ComponentList;
	/** True when a value was cut to its placeholder's part. */
	changed: boolean;
	issues: FieldIssue[];
}

/** The value to send for a whole URL, or the problem with it; undefined leaves the value alone. */
function fit(
	name: string,
	value: string,
	template: TemplateDescription | undefined,
): string | FieldIssue | undefined {
	const field = `button ${name}`;
	if (!template) {
		// A quick reply payload may be any text; every other button value may feed a URL.
		const target = parseButtonName(name);
		if (target?.form === 'index' && target.type === 'quick_reply') return undefined;
		return {
			field,
			message: `is a whole URL (${echo(value)}): give only the part that replaces the placeholder at the end of the button's URL (the template could not be read, so the node cannot cut it)`,
		};
	}
	const button = buttonNamed(name, template.buttons);
	const placeholder = button?.kind === 'URL' ? PLACEHOLDER.exec(button.url ?? '') : null;
	// Not a URL button with a placeholder: the template check names that mistake.
	if (!button?.url || !placeholder) return undefined;
	const prefix = button.url.slice(0, placeholder.index);
	const suffix = button.url.slice(placeholder.index + placeholder[0].length);
	if (prefix === '') return undefined;
	if (
		value.length > prefix.length + suffix.length &&
		value.startsWith(prefix) &&
		value.endsWith(suffix)
	) {
		return value.slice(prefix.length, value.length - suffix.length);
	}
	return {
		field,
		message: `is a whole URL (${echo(value)}), but the button "${button.text}" opens ${button.url}: give only the part that replaces {{${placeholder[1]}}} (or a URL that starts with ${prefix})`,
	};
}

export function fitUrlButtonValues(
	componentList: ComponentList,
	template: TemplateDescription | undefined,
): FittedButtons {
	const issues: FieldIssue[] = [];
	let changed = false;
	const components = componentList.components.map((component) => {
		if (component.component_type !== 'BUTTONS') return component;
		const fields = component.fields.map((field) => {
			if (!WHOLE_URL.test(field.value)) return field;
			const fitted = fit(field.name, field.value, template);
			if (typeof fitted === 'string') {
				changed = true;
				return { ...field, value: fitted };
			}
			if (fitted) issues.push(fitted);
			return field;
		});
		return { ...component, fields };
	});
	return { componentList: { components }, changed, issues };
}
