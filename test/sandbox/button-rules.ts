// BUTTONS component rules (docs/api.md "Template send rules", rules 3-7, 10, 11), checked against
// the template's button array.
import { ACCEPTED_BUTTON_NAMES, parseButtonName, type ButtonTarget } from './button-names';
import { placeholdersOf } from './placeholders';
import type { Checked, Problem, Template, TemplateButton } from './types';

export interface Field {
	name: string;
	value: string;
}

const invalid = (message: string): Problem => ({ status: 400, code: 'invalid_button', message });

function describe(index: number, button: TemplateButton): string {
	return `button ${index} (${button.type} '${button.text}')`;
}

function describeAll(template: Template): string {
	return template.button.map((b, i) => describe(i, b)).join(', ');
}

function nameFor(index: number, button: TemplateButton): string {
	if (button.type === 'URL') return `'url:${index}' or 'button:${index}'`;
	if (button.type === 'QUICK_REPLY') return `'quick_reply:${index}' or 'button:${index}'`;
	return 'no name (it takes no value)';
}

function resolveTarget(target: ButtonTarget, name: string, template: Template): Checked<number> {
	const buttons = template.button;
	if (target.kind === 'placeholder') {
		const candidates = buttons
			.map((b, i) => ({ b, i }))
			.filter(({ b }) => b.type === 'URL' && placeholdersOf(b.url).includes(target.placeholder));
		if (candidates.length === 1) return { ok: true, value: candidates[0].i };
		const message =
			candidates.length === 0
				? `BUTTONS field '${name}' targets placeholder {{${target.placeholder}}}, but no button url of template '${template.id}' has it (buttons: ${describeAll(template)}); quick reply payloads are named 'quick_reply:<n>'`
				: `BUTTONS field '${name}' is ambiguous: several URL buttons have {{${target.placeholder}}}; name the button by index, e.g. 'url:${candidates[0].i}'`;
		return { ok: false, problem: invalid(message) };
	}
	const button = buttons[target.index];
	if (!button) {
		const message = `BUTTONS field '${name}' targets button ${target.index}, but template '${template.id}' has ${buttons.length} button(s) (zero-based indexes 0..${buttons.length - 1})`;
		return { ok: false, problem: invalid(message) };
	}
	const wanted =
		target.type === 'url' ? 'URL' : target.type === 'quick_reply' ? 'QUICK_REPLY' : null;
	if (wanted !== null && button.type !== wanted) {
		const message = `BUTTONS field '${name}' targets ${describe(target.index, button)}, which is not a ${wanted} button; name it ${nameFor(target.index, button)}`;
		return { ok: false, problem: invalid(message) };
	}
	return { ok: true, value: target.index };
}

function checkValue(field: Field, index: number, button: TemplateButton): Problem | null {
	const what = describe(index, button);
	switch (button.type) {
		case 'PHONE_NUMBER':
			return invalid(
				`${what} is a PHONE_NUMBER button: its number cannot be changed at send time (a different number needs a separate approved template); remove BUTTONS field '${field.name}'`,
			);
		case 'FLOW':
			return invalid(
				`${what} is a FLOW button: the template is sent with no Flow field (the Flow action token is created automatically); remove BUTTONS field '${field.name}'`,
			);
		case 'URL': {
			if (placeholdersOf(button.url).length === 0) {
				return invalid(
					`${what} has a fixed url '${button.url}' without a placeholder, so it takes no value; remove BUTTONS field '${field.name}'`,
				);
			}
			// Rule 3: only the placeholder value, unless the placeholder is the whole url.
			if (!button.url.startsWith('{{') && /^https?:\/\//i.test(field.value)) {
				return invalid(
					`BUTTONS field '${field.name}' holds a full URL, but the url of ${what} is '${button.url}': send only the value that replaces the placeholder`,
				);
			}
			return null;
		}
		case 'QUICK_REPLY':
			return null; // rule 5: the value is the webhook payload; any non-empty string is fine
	}
}

/**
 * Checks the BUTTONS fields (possibly none) and that every URL placeholder gets a value (rule 10).
 */
export function checkButtonFields(fields: Field[], template: Template): Problem | null {
	const filled = new Map<number, string>();
	for (const field of fields) {
		const target = parseButtonName(field.name);
		if (!target) {
			return invalid(
				`BUTTONS field name '${field.name}' is not valid: use ${ACCEPTED_BUTTON_NAMES}`,
			);
		}
		if (template.button.length === 0) {
			return invalid(`Template '${template.id}' has no buttons; remove the BUTTONS component`);
		}
		const resolved = resolveTarget(target, field.name, template);
		if (!resolved.ok) return resolved.problem;
		const index = resolved.value;
		const problem = checkValue(field, index, template.button[index]);
		if (problem) return problem;
		const previous = filled.get(index);
		if (previous !== undefined) {
			return invalid(
				`BUTTONS fields '${previous}' and '${field.name}' both target button ${index}; send one value per button`,
			);
		}
		filled.set(index, field.name);
	}
	for (const [index, button] of template.button.entries()) {
		const needed = button.type === 'URL' ? placeholdersOf(button.url) : [];
		if (needed.length > 0 && !filled.has(index)) {
			return {
				status: 400,
				code: 'missing_variable',
				message: `${describe(index, button)} needs a value for {{${needed[0]}}} in its url '${button.url}': add a BUTTONS field named '${needed[0]}' or 'url:${index}'`,
			};
		}
	}
	return null;
}
