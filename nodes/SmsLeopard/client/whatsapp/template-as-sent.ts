/**
 * What the customer gets from a template send, in words: the template's own texts with the values
 * of the request body put in their {{n}} places, the header file's name as sent, and each button's
 * link or payload as filled. Read from the body that is sent (not from the fields typed), so what
 * the output shows is what went out, whichever way the values were given.
 */
import { parseButtonName } from './button-names';
import { buttonNamed } from './template-rules';
import type { SendTemplateBody } from './messages';
import type { TemplateDescription } from './templates';

export interface ButtonAsSent {
	/** The button's own text, as approved. */
	text: string;
	kind: 'url' | 'quickReply' | 'phoneNumber' | 'flow' | 'copyCode' | 'other';
	/** A URL button's link with its value in place. */
	url?: string;
	/** A quick-reply button's payload, when one is sent. */
	payload?: string;
	/** A copy-code button's code. */
	code?: string;
}

/** The header as the customer gets it: its kind, and its text or file. */
export interface HeaderAsSent {
	kind: 'text' | 'image' | 'document' | 'video';
	text?: string;
	/** The file's name: a document's as the customer sees it, or the name of the file uploaded. */
	fileName?: string;
	mediaId?: string;
}

export interface TemplateAsSent {
	header?: HeaderAsSent;
	headerText?: string;
	/** The document header's file name as the customer sees it. */
	headerFile?: string;
	bodyText: string;
	buttons?: ButtonAsSent[];
}

const KINDS: Record<string, ButtonAsSent['kind']> = {
	URL: 'url',
	QUICK_REPLY: 'quickReply',
	PHONE_NUMBER: 'phoneNumber',
	FLOW: 'flow',
	COPY_CODE: 'copyCode',
};

/** `text` with each {{n}} replaced by the value named n; a placeholder without one stays as is. */
function filled(text: string, values: Map<string, string>): string {
	return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => values.get(n) ?? whole);
}

function valuesOf(body: SendTemplateBody, type: string): Map<string, string> {
	const component = body.component_list.components.find((each) => each.component_type === type);
	return new Map((component?.fields ?? []).map((field) => [field.name, String(field.value)]));
}

/**
 * The button a BUTTONS field fills: by index or URL placeholder, else (an authentication
 * template's code, named "1") the copy-code button.
 */
function buttonOf(name: string, template: TemplateDescription) {
	return (
		buttonNamed(name, template.buttons) ??
		(parseButtonName(name)?.form === 'placeholder'
			? template.buttons.find((button) => button.kind === 'COPY_CODE')
			: undefined)
	);
}

/** The placeholder a BUTTONS field's name gives ("1"); an index-targeted name (url:0) gives none. */
function placeholderOf(name: string): string | undefined {
	const parsed = parseButtonName(name);
	return parsed?.form === 'placeholder' ? String(parsed.placeholder) : undefined;
}

/** The header sent: a text header filled, or the media header's kind, media ID and file name. */
function headerAsSent(
	template: TemplateDescription,
	body: SendTemplateBody,
	uploadedFileName: string | undefined,
): HeaderAsSent | undefined {
	const header = template.header;
	if (!header) return undefined;
	if (header.format === 'TEXT') {
		return { kind: 'text', text: filled(header.text ?? '', valuesOf(body, 'HEADER')) };
	}
	const fileName = body.file_name ?? uploadedFileName;
	return {
		kind: header.format.toLowerCase() as HeaderAsSent['kind'],
		...(fileName ? { fileName } : {}),
		...(body.media_id ? { mediaId: body.media_id } : {}),
	};
}

/**
 * The filled template; undefined without the template's description (its texts are unknown).
 * `uploadedFileName` names the header file uploaded for this send, when there was one.
 */
export function templateAsSent(
	template: TemplateDescription | undefined,
	body: SendTemplateBody,
	uploadedFileName?: string,
): TemplateAsSent | undefined {
	if (!template) return undefined;
	const header = template.header;
	const headerSent = headerAsSent(template, body, uploadedFileName);
	const buttonFields = [...valuesOf(body, 'BUTTONS')].map(([name, value]) => ({
		button: buttonOf(name, template),
		// An index-targeted name (url:0) fills the link's one placeholder.
		placeholder: placeholderOf(name),
		value,
	}));
	const buttons = template.buttons.map((button): ButtonAsSent => {
		const kind = KINDS[button.kind] ?? 'other';
		const values = new Map(
			buttonFields
				.filter((field) => field.button === button)
				.map((field) => [field.placeholder ?? String(button.urlPlaceholders[0] ?? 1), field.value]),
		);
		const value = [...values.values()][0];
		return {
			text: button.text,
			kind,
			...(kind === 'url' && button.url ? { url: filled(button.url, values) } : {}),
			...(kind === 'quickReply' && value !== undefined ? { payload: value } : {}),
			...(kind === 'copyCode' && value !== undefined ? { code: value } : {}),
		};
	});
	return {
		...(headerSent ? { header: headerSent } : {}),
		...(header?.format === 'TEXT' && header.text
			? { headerText: filled(header.text, valuesOf(body, 'HEADER')) }
			: {}),
		...(header?.format === 'DOCUMENT' && body.file_name ? { headerFile: body.file_name } : {}),
		bodyText: filled(template.body, valuesOf(body, 'BODY')),
		...(buttons.length ? { buttons } : {}),
	};
}
