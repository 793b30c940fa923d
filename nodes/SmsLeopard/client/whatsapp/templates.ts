/**
 * Templates of a sender number: GET {chat_url}/v1/phone_number_ids/{id}/templates, where `{id}` is
 * the sender's record id (docs/api.md "Template listing"). The header's shape is undocumented, so
 * it is read leniently. `describeTemplate` says what a template needs at send time: its header
 * kind, placeholders and buttons.
 */
import { z } from 'zod';
import type { ApiCall } from '../http/api-caller';
import {
	answerId,
	answerList,
	answerRecord,
	answerText,
	answerWholeNumber,
} from '../http/answer-values';

const buttonSchema = answerRecord({
	type: answerText,
	text: answerText,
	url: answerText,
	phone_number: answerText,
});

// Odd fields become null with a note (answer-values.ts); a template without a usable id stays in
// Template > Get Many with its note, but cannot be picked or checked against.
export const templateSchema = answerRecord({
	id: answerId,
	account_id: answerWholeNumber,
	name: answerText,
	language: answerText,
	status: answerText,
	type: answerText,
	message: answerText,
	footer: answerText,
	button: answerList(buttonSchema),
});

export type Template = z.infer<typeof templateSchema>;

export function templatesCall(senderId: number): ApiCall<Template[]> {
	return {
		operation: `List templates of sender ${senderId}`,
		host: 'chat',
		method: 'GET',
		path: `/v1/phone_number_ids/${senderId}/templates`,
		idempotent: true,
		response: z.array(templateSchema),
	};
}

export type HeaderFormat = 'TEXT' | 'DOCUMENT' | 'IMAGE' | 'VIDEO';
export type ButtonKind = 'URL' | 'QUICK_REPLY' | 'PHONE_NUMBER' | 'FLOW' | 'COPY_CODE' | 'OTHER';

export interface TemplateButton {
	index: number;
	kind: ButtonKind;
	text: string;
	url?: string;
	/** Placeholders in the URL, e.g. [1] for `https://x/{{1}}`. */
	urlPlaceholders: number[];
	phoneNumber?: string;
}

export interface TemplateDescription {
	id: string;
	name: string;
	language: string;
	category: string;
	status: string;
	approved: boolean;
	header: { format: HeaderFormat; text?: string; placeholders: number[] } | null;
	body: string;
	bodyPlaceholders: number[];
	buttons: TemplateButton[];
	/**
	 * Fields of the listing that were odd (answer-values.ts): what is described may be incomplete.
	 */
	notes?: string[];
}

export function placeholdersIn(text: string | null | undefined): number[] {
	const numbers = new Set<number>();
	for (const match of (text ?? '').matchAll(/\{\{\s*(\d+)\s*\}\}/g)) numbers.add(Number(match[1]));
	return [...numbers].sort((a, b) => a - b);
}

const HEADER_FORMATS: HeaderFormat[] = ['TEXT', 'DOCUMENT', 'IMAGE', 'VIDEO'];

function readHeader(header: unknown): TemplateDescription['header'] {
	if (header === null || header === undefined || header === '') return null;
	if (typeof header === 'string') {
		const upper = header.trim().toUpperCase();
		if (HEADER_FORMATS.includes(upper as HeaderFormat)) {
			return { format: upper as HeaderFormat, placeholders: [] };
		}
		return { format: 'TEXT', text: header, placeholders: placeholdersIn(header) };
	}
	if (typeof header !== 'object') return null;
	const record = header as Record<string, unknown>;
	const rawFormat = [record.format, record.type, record.header_type, record.media_type].find(
		(value) => typeof value === 'string',
	) as string | undefined;
	const text = [record.text, record.content, record.value].find(
		(value) => typeof value === 'string',
	) as string | undefined;
	const format = (rawFormat?.trim().toUpperCase() ?? (text ? 'TEXT' : undefined)) as
		HeaderFormat | undefined;
	if (!format || !HEADER_FORMATS.includes(format)) return null;
	return format === 'TEXT'
		? { format, text, placeholders: placeholdersIn(text) }
		: { format, placeholders: [] };
}

function buttonKind(type: string | null | undefined): ButtonKind {
	const normalized = (type ?? '').trim().toUpperCase().replace(/[\s-]/g, '_');
	if (normalized === 'URL') return 'URL';
	if (normalized === 'QUICK_REPLY') return 'QUICK_REPLY';
	if (normalized === 'PHONE_NUMBER' || normalized === 'PHONE') return 'PHONE_NUMBER';
	if (normalized === 'FLOW') return 'FLOW';
	if (normalized === 'COPY_CODE' || normalized === 'OTP') return 'COPY_CODE';
	return 'OTHER';
}

export function describeTemplate(template: Template): TemplateDescription {
	return {
		id: template.id ?? '',
		name: template.name ?? template.id ?? '',
		language: template.language ?? '',
		category: template.type ?? '',
		status: template.status ?? '',
		approved: (template.status ?? '').toUpperCase() === 'APPROVED',
		header: readHeader(template.header),
		body: template.message ?? '',
		bodyPlaceholders: placeholdersIn(template.message),
		buttons: (template.button ?? []).map((button, index) => ({
			index,
			kind: buttonKind(button.type),
			text: button.text ?? '',
			...(button.url ? { url: button.url } : {}),
			urlPlaceholders: placeholdersIn(button.url),
			...(button.phone_number ? { phoneNumber: button.phone_number } : {}),
		})),
		...(template.notes ? { notes: template.notes } : {}),
	};
}
