/**
 * What a template needs, in a few words for the template picker: its header kind, how many
 * variables it takes and its buttons ("document header, 2 variables, 1 URL button"), so a marketer
 * finds the template with a URL button or a document header without opening each one.
 */
import type { ButtonKind, TemplateDescription } from '../client';

const HEADER_WORDS = {
	TEXT: 'text header',
	DOCUMENT: 'document header',
	IMAGE: 'image header',
	VIDEO: 'video header',
} as const;

const BUTTON_WORDS: Record<ButtonKind, [one: string, many: string]> = {
	URL: ['URL button', 'URL buttons'],
	QUICK_REPLY: ['quick reply', 'quick replies'],
	PHONE_NUMBER: ['call button', 'call buttons'],
	FLOW: ['Flow button', 'Flow buttons'],
	COPY_CODE: ['copy-code button', 'copy-code buttons'],
	OTHER: ['other button', 'other buttons'],
};

const counted = (count: number, [one, many]: [string, string]) =>
	`${count} ${count === 1 ? one : many}`;

export function templateNeeds(template: TemplateDescription): string {
	// Its one code fills the body and the copy-code button alike (docs/api.md "Template send rules",
	// rule 11).
	if (template.category.toUpperCase() === 'AUTHENTICATION') return 'one-time code';
	const parts: string[] = [];
	if (template.header) parts.push(HEADER_WORDS[template.header.format]);
	const variables =
		(template.header?.placeholders.length ?? 0) +
		template.bodyPlaceholders.length +
		template.buttons.reduce((sum, button) => sum + button.urlPlaceholders.length, 0);
	parts.push(variables === 0 ? 'no variables' : counted(variables, ['variable', 'variables']));
	const buttons = new Map<ButtonKind, number>();
	for (const button of template.buttons)
		buttons.set(button.kind, (buttons.get(button.kind) ?? 0) + 1);
	for (const [kind, count] of buttons) parts.push(counted(count, BUTTON_WORDS[kind]));
	return parts.join(', ');
}

/** The picker's line: name, language and category, then what the template needs. */
export function templateListName(template: TemplateDescription): string {
	const about = [template.language, template.category].filter(Boolean).join(', ');
	return `${template.name} (${about}): ${templateNeeds(template)}`;
}
