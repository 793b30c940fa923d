/** Create and delete contacts on {base_url} (docs/api.md "Contacts"). */
import { z } from 'zod';
import type { ApiCall } from '../http/api-caller';
import { answerRecord, answerRecordId, answerText, essentialAnswer } from '../http/answer-values';
import { pathId, plainText, recordId } from '../values/identifiers';
import { phoneNumberSchema } from '../values/phone-number';
import { validateInput } from '../http/validation';
import { echo } from '../http/echo';
import { exactNumber } from '../values/number-text';

export interface CustomAttribute {
	name: string;
	value: string;
}

export interface CreateContactRequest {
	phoneNumber: string;
	name?: string;
	email?: string;
	groupIds?: Array<number | string>;
	/** Extra profile attributes (signup source, last purchase, ...), sent as `custom_metadata`. */
	customAttributes?: CustomAttribute[];
}

const attribute = z.object({
	name: plainText('an attribute name').pipe(z.string().trim().min(1, 'is required')),
	value: z.union([z.string(), exactNumber, z.boolean()]).transform(String),
});

const createContactInput = z.object({
	phoneNumber: phoneNumberSchema,
	name: plainText('a name')
		.transform((name) => name.trim())
		.optional(),
	email: z.string().trim().email('is not a valid e-mail address').optional(),
	groupIds: z.array(recordId('a group id')).optional(),
	customAttributes: z
		.array(attribute)
		.superRefine((attributes, context) => {
			const seen = new Set<string>();
			attributes.forEach((item, position) => {
				if (seen.has(item.name)) {
					context.addIssue({
						code: z.ZodIssueCode.custom,
						path: [position, 'name'],
						message: `"${echo(item.name)}" is given twice: keep one`,
					});
				}
				seen.add(item.name);
			});
		})
		.optional(),
});

export function buildCreateContactBody(request: CreateContactRequest) {
	const input = validateInput(createContactInput, request);
	return {
		phone_number: input.phoneNumber,
		...(input.name ? { name: input.name } : {}),
		...(input.email ? { email: input.email } : {}),
		...(input.groupIds?.length ? { group_ids: [...new Set(input.groupIds)] } : {}),
		...(input.customAttributes?.length
			? { custom_metadata: { fields: input.customAttributes } }
			: {}),
	};
}

export type CreateContactBody = ReturnType<typeof buildCreateContactBody>;

// Odd fields of the created record become null with a note, except its id: without a usable one
// nothing confirms which contact (if any) was created, so the item is "maybe created".
export const contactSchema = answerRecord({
	id: essentialAnswer(
		answerRecordId,
		'nothing confirms the contact was created; check in SMSLeopard before creating it again',
	),
	name: answerText,
	phone_number: answerText,
	email: answerText,
	created_at: answerText,
	updated_at: answerText,
});

export type Contact = z.infer<typeof contactSchema>;

export function createContactCall(body: CreateContactBody): ApiCall<Contact> {
	return {
		operation: `Create contact ${body.phone_number}`,
		host: 'contacts',
		method: 'POST',
		path: '/v1/contacts/create',
		body: { type: 'json', data: body },
		// Whether a repeat updates or duplicates is not stated: unsafe
		// (docs/api.md "What is undocumented and what we assume").
		idempotent: false,
		response: contactSchema,
	};
}

export const deleteContactResponseSchema = answerRecord({ message: answerText });

export type DeleteContactResult = z.infer<typeof deleteContactResponseSchema>;

export function checkContactId(id: unknown): string {
	return validateInput(pathId('a contact id'), id, 'contactId');
}

export function deleteContactCall(contactId: string): ApiCall<DeleteContactResult> {
	return {
		operation: `Delete contact ${contactId}`,
		host: 'contacts',
		method: 'DELETE',
		path: `/v1/contacts/${contactId}`,
		idempotent: true,
		response: deleteContactResponseSchema,
	};
}
