/**
 * A template message prepared for sending: its body built once and checked, before any request,
 * against the template when the account lists it (template-rules.ts) and for whole URLs given to
 * URL buttons (url-button-values.ts). What is sent is exactly this body; the only thing added later
 * is the media_id of a header file uploaded after the checks passed.
 */
import {
	type SendTemplateBody,
	type SendTemplateRequest,
	bodyWithMediaId,
	buildSendTemplateBody,
} from './messages';
import { SmsLeopardValidationError } from '../http/errors';
import type { MediaCategory } from './media-types';
import { checkAgainstTemplate } from './template-rules';
import type { TemplateDescription } from './templates';
import { fitUrlButtonValues } from './url-button-values';

export interface TemplateMessageChecks {
	/** The template as the account lists it; without it the service alone checks the send. */
	template?: TemplateDescription;
	/** The header media's category, when known before sending. */
	mediaCategory?: MediaCategory;
	/** The header file is uploaded once the checks pass; its media_id joins the body then. */
	mediaToUpload?: boolean;
}

export interface PreparedTemplateMessage {
	readonly body: SendTemplateBody;
	/** True until `withMediaId` adds the media_id of the header file uploaded after the checks. */
	readonly awaitsMediaId: boolean;
	/**
	 * True when a value was changed to fit the template (a whole URL cut to its placeholder's part):
	 * what is sent then depends on the listing, not only on the item.
	 */
	readonly fittedToTemplate?: boolean;
}

export function prepareTemplateMessage(
	request: SendTemplateRequest,
	checks: TemplateMessageChecks = {},
): PreparedTemplateMessage {
	const mediaToUpload = checks.mediaToUpload === true;
	const body = buildSendTemplateBody(request, mediaToUpload);
	const buttons = fitUrlButtonValues(body.component_list, checks.template);
	const issues = [
		...buttons.issues,
		...(checks.template
			? checkAgainstTemplate(checks.template, body, {
					mediaCategory: checks.mediaCategory,
					mediaToUpload,
				})
			: []),
	];
	if (issues.length > 0) throw new SmsLeopardValidationError(issues);
	// A whole URL cut to its placeholder's part is sent as the list it became.
	return {
		body: buttons.changed ? { ...body, component_list: buttons.componentList } : body,
		awaitsMediaId: mediaToUpload,
		...(buttons.changed ? { fittedToTemplate: true } : {}),
	};
}

export function withMediaId(
	prepared: PreparedTemplateMessage,
	mediaId: string,
): PreparedTemplateMessage {
	return { ...prepared, body: bodyWithMediaId(prepared.body, mediaId), awaitsMediaId: false };
}
