/**
 * The rules of docs/api.md "Template send rules" that need the template: every variable present
 * (rule 10), header media present and of the header's type (rule 8), file_name for document headers
 * only (rule 9), no value for phone number or Flow buttons (rules 6, 7), only approved templates.
 * Checked before a send, so a bad item is refused with the field named instead of costing a
 * request.
 */
import { parseButtonName } from './button-names';
import type { FieldIssue } from '../http/errors';
import type { MediaCategory } from './media-types';
import type { SendTemplateBody } from './messages';
import type { TemplateButton, TemplateDescription } from './templates';

const MEDIA_HEADERS: Record<string, MediaCategory> = {
	DOCUMENT: 'document',
	IMAGE: 'image',
	VIDEO: 'video',
};

export function headerMediaCategory(template: TemplateDescription): MediaCategory | undefined {
	return template.header ? MEDIA_HEADERS[template.header.format] : undefined;
}

/** "an image", "a document", "a video". */
function withArticle(word: string): string {
	return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

/** The button a BUTTONS field name points at, if any. */
export function buttonNamed(name: string, buttons: TemplateButton[]): TemplateButton | undefined {
	const parsed = parseButtonName(name);
	if (!parsed) return undefined;
	if (parsed.form === 'index') return buttons[parsed.index];
	return buttons.find((button) => button.urlPlaceholders.includes(parsed.placeholder));
}

/** A BUTTONS field as errors name it, with the button's own text when the template is known. */
export function buttonField(name: string, button?: TemplateButton): string {
	return button ? `button ${name} ${JSON.stringify(button.text)}` : `button ${name}`;
}

export interface TemplateCheckContext {
	/** The category of `media_id` when it was uploaded in this run (so its type is known). */
	mediaCategory?: MediaCategory;
	/** The header file is uploaded after these checks; its media_id is not in the body yet. */
	mediaToUpload?: boolean;
}

export function checkAgainstTemplate(
	template: TemplateDescription,
	body: SendTemplateBody,
	context: TemplateCheckContext = {},
): FieldIssue[] {
	const issues: FieldIssue[] = [];
	const label = `template "${template.name}"`;
	if (!template.approved) {
		issues.push({
			field: 'templateId',
			message: `${label} is ${template.status || 'not approved'}: only approved templates can be sent`,
		});
	}
	const fieldsOf = (type: string) =>
		body.component_list.components.find((component) => component.component_type === type)?.fields ??
		[];
	const given = (type: string) => new Set(fieldsOf(type).map((field) => field.name));

	const bodyGiven = given('BODY');
	for (const placeholder of template.bodyPlaceholders) {
		if (!bodyGiven.has(String(placeholder))) {
			issues.push({
				field: `body {{${placeholder}}}`,
				message: `is required by ${label}: give a value for {{${placeholder}}} of the body`,
			});
		}
	}
	for (const name of bodyGiven) {
		if (!template.bodyPlaceholders.includes(Number(name))) {
			issues.push({
				field: `body {{${name}}}`,
				message: `is not a placeholder of ${label}'s body (it has ${template.bodyPlaceholders.map((n) => `{{${n}}}`).join(', ') || 'none'})`,
			});
		}
	}
	const headerGiven = given('HEADER');
	const headerPlaceholders = template.header?.format === 'TEXT' ? template.header.placeholders : [];
	for (const placeholder of headerPlaceholders) {
		if (!headerGiven.has(String(placeholder))) {
			issues.push({
				field: `header {{${placeholder}}}`,
				message: `is required by ${label}: give a value for {{${placeholder}}} of the header`,
			});
		}
	}
	if (headerGiven.size > 0 && headerPlaceholders.length === 0) {
		issues.push({
			field: 'header',
			message: `${label} has no header variables: remove the header values`,
		});
	}

	const buttonFields = fieldsOf('BUTTONS');
	const filled = new Set<TemplateButton>();
	for (const field of buttonFields) {
		const button = buttonNamed(field.name, template.buttons);
		if (!button) {
			issues.push({
				field: `button ${field.name}`,
				message: `does not match a button of ${label} (it has ${template.buttons.length} button(s))`,
			});
			continue;
		}
		if (button.kind === 'PHONE_NUMBER') {
			issues.push({
				field: buttonField(field.name, button),
				message: `is a phone number button, which cannot be changed at send time: remove the value (a different number needs another approved template)`,
			});
		} else if (button.kind === 'FLOW') {
			issues.push({
				field: buttonField(field.name, button),
				message: `is a Flow button, which takes no value: remove it (the Flow token is created automatically)`,
			});
		} else {
			filled.add(button);
		}
	}
	for (const button of template.buttons) {
		if (button.urlPlaceholders.length > 0 && !filled.has(button)) {
			issues.push({
				field: buttonField(`button:${button.index}`, button),
				message: `opens ${button.url} and needs the value of its {{${button.urlPlaceholders[0]}}}`,
			});
		}
	}

	const needed = headerMediaCategory(template);
	const hasMedia = Boolean(body.media_id) || context.mediaToUpload === true;
	if (needed && !hasMedia) {
		issues.push({
			field: 'mediaId',
			message: `${label} has ${withArticle(needed)} header: give a media ID of ${needed} media, or a file to upload`,
		});
	}
	if (!needed && hasMedia) {
		issues.push({
			field: 'mediaId',
			message: `${label} has no document, image or video header: remove the header media`,
		});
	}
	if (needed && hasMedia && context.mediaCategory && context.mediaCategory !== needed) {
		issues.push({
			field: 'mediaId',
			message: `is ${context.mediaCategory} media but ${label} has ${withArticle(needed)} header: use ${needed} media`,
		});
	}
	if (body.file_name && needed !== 'document') {
		issues.push({
			field: 'fileName',
			message: `applies to document headers only, and ${label} has ${needed ? withArticle(needed) : 'no media'} header: remove it`,
		});
	}
	return issues;
}
