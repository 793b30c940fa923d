/**
 * Send template message: POST {chat_url}/v1/{channel}/send (docs/api.md "Send a template message").
 */
import { z } from 'zod';
import { readRecipientEntry } from '../http/recipient-pairing';
import { isPlainRecord, withOtherFields } from '../http/plain-answer';
import type { ApiCall } from '../http/api-caller';
import {
	type ComponentList,
	type TemplateVariables,
	buildComponentList,
	normalizeComponentList,
} from './components';
import { SmsLeopardValidationError } from '../http/errors';
import { hasControlCharacter, identifier, plainIdentifier, plainText } from '../values/identifiers';
import { phoneNumberSchema, plainPhoneNumber } from '../values/phone-number';
import { validateInput } from '../http/validation';

export interface SendTemplateRequest {
	/** The sender's `phone_number_id` (not the `id` of its record). */
	phoneNumberId: string;
	templateId: string;
	/** Recipient, international (with or without +) or local format. */
	destination: string;
	/** Header, body and button values; the client builds `component_list` from them. */
	variables?: TemplateVariables;
	/** A hand-written `component_list` instead of `variables` (object or JSON text). */
	componentList?: unknown;
	/** `media_id` from media upload, for templates with a document, image or video header. */
	mediaId?: string;
	/** Display file name, for document headers only. */
	fileName?: string;
}

export interface SendTemplateBody {
	destination: string;
	template_id: string;
	phone_number_id: string;
	component_list: ComponentList;
	media_id?: string;
	file_name?: string;
}

export const sendTemplateInput = z
	.object({
		phoneNumberId: identifier("the sender number's phone_number_id"),
		templateId: identifier('a template id'),
		destination: phoneNumberSchema,
		variables: z.unknown().optional(),
		componentList: z.unknown().optional(),
		mediaId: identifier('a media id from media upload').optional(),
		fileName: plainText('a file name').pipe(z.string().trim().min(1, 'is empty')).optional(),
		mediaToUpload: z.boolean().optional(),
	})
	.superRefine((input, context) => {
		if (input.variables !== undefined && input.componentList !== undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['componentList'],
				message: 'give either variables or componentList, not both',
			});
		}
		if (input.fileName !== undefined && input.mediaId === undefined && !input.mediaToUpload) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['fileName'],
				message:
					'applies to document headers only, which also need mediaId: add the media id or remove the file name',
			});
		}
	});

type SendTemplateInput = z.infer<typeof sendTemplateInput>;

/**
 * sendTemplateInput's reading of a usual send, without zod: every item of a run is checked before
 * the first send, and zod's parse was most of that check's cost. Anything unusual (a field zod
 * refuses or changes in another way, both variables and a component list, a file name without a
 * media id) is left to zod, which names what is wrong. test/client/plain-inputs.test.ts holds it to
 * the schema.
 */
export function readSendTemplateInputPlainly(
	input: SendTemplateRequest & { mediaToUpload: boolean },
): SendTemplateInput | undefined {
	const phoneNumberId = plainIdentifier(input.phoneNumberId);
	const templateId = plainIdentifier(input.templateId);
	const destination = plainPhoneNumber(input.destination);
	if (phoneNumberId === undefined || templateId === undefined || destination === undefined) {
		return undefined;
	}
	const { variables, componentList, mediaToUpload } = input;
	if (variables !== undefined && componentList !== undefined) return undefined;
	let mediaId: string | undefined;
	if (input.mediaId !== undefined) {
		mediaId = plainIdentifier(input.mediaId);
		if (mediaId === undefined) return undefined;
	}
	let fileName: string | undefined;
	if (input.fileName !== undefined) {
		if (typeof input.fileName !== 'string' || hasControlCharacter(input.fileName)) return undefined;
		fileName = input.fileName.trim();
		if (fileName === '' || (mediaId === undefined && !mediaToUpload)) return undefined;
	}
	return { phoneNumberId, templateId, destination, variables, componentList, mediaId, fileName };
}

/**
 * A header is one line on the recipient's screen, and WhatsApp refuses header variables with line
 * breaks; checked on the built list so every way of filling the template (fields, JSON) is covered.
 */
function refuseMultilineHeader(componentList: ComponentList): void {
	const issues = componentList.components
		.filter((component) => component.component_type === 'HEADER')
		.flatMap((component) => component.fields)
		.filter((field) => /[\r\n\u2028\u2029]/.test(field.value))
		.map((field) => ({
			field: `header {{${field.name}}}`,
			message: 'is part of the header, which is one line: remove the line break from the value',
		}));
	if (issues.length > 0) throw new SmsLeopardValidationError(issues);
}

/**
 * Checks a send request and turns it into the body the service takes; nothing is sent. With
 * `mediaToUpload`, the header file's media_id is not known yet (withMediaId adds it after the
 * upload), so a document's file name may come without it.
 */
export function buildSendTemplateBody(
	request: SendTemplateRequest,
	mediaToUpload = false,
): SendTemplateBody {
	if (request === null || typeof request !== 'object') {
		throw new SmsLeopardValidationError([{ field: '', message: 'the send request is missing' }]);
	}
	const withFlag = { ...request, mediaToUpload };
	const input =
		readSendTemplateInputPlainly(withFlag) ?? validateInput(sendTemplateInput, withFlag);
	const componentList =
		input.componentList !== undefined
			? normalizeComponentList(input.componentList)
			: buildComponentList((input.variables as TemplateVariables | undefined) ?? {});
	refuseMultilineHeader(componentList);
	return {
		destination: input.destination,
		template_id: input.templateId,
		phone_number_id: input.phoneNumberId,
		component_list: componentList,
		...(input.mediaId !== undefined ? { media_id: input.mediaId } : {}),
		...(input.fileName !== undefined ? { file_name: input.fileName } : {}),
	};
}

const uploadedMediaId = identifier('a media id from media upload');

/**
 * The body completed with the media_id its header file got at upload, in the body's field order.
 */
export function bodyWithMediaId(body: SendTemplateBody, mediaId: string): SendTemplateBody {
	const { file_name: fileName, ...rest } = body;
	return {
		...rest,
		media_id: validateInput(uploadedMediaId, mediaId, 'mediaId'),
		...(fileName !== undefined ? { file_name: fileName } : {}),
	};
}

/**
 * The send answer: its recipient entries read without trusting their types (recipient-pairing.ts
 * then decides which entry is this destination's), and the answer as it came, for Include Raw
 * Answer.
 */
export const sendTemplateResponseSchema = z
	.object({ recipients: z.array(z.unknown()).min(1, 'no recipient result was returned') })
	.passthrough()
	.transform((answer) => ({
		recipients: answer.recipients.map(readRecipientEntry),
		answer: answer as Record<string, unknown>,
	}));

export type SendTemplateResult = z.infer<typeof sendTemplateResponseSchema>;

/** sendTemplateResponseSchema's reading of a usual answer, without zod (client/http/plain-answer.ts). */
export function readSendTemplateAnswer(value: unknown): SendTemplateResult | undefined {
	if (!isPlainRecord(value)) return undefined;
	const { recipients } = value;
	if (!Array.isArray(recipients) || recipients.length === 0) return undefined;
	const answer = withOtherFields({ recipients: [...recipients] }, value, ['recipients']);
	return { recipients: recipients.map(readRecipientEntry), answer };
}

export function sendTemplateCall(
	channel: string,
	body: SendTemplateBody,
): ApiCall<SendTemplateResult> {
	return {
		operation: `Send template '${body.template_id}' to ${body.destination}`,
		host: 'chat',
		method: 'POST',
		path: `/v1/${channel}/send`,
		body: { type: 'json', data: body },
		idempotent: false,
		response: sendTemplateResponseSchema,
		readPlainly: readSendTemplateAnswer,
	};
}
