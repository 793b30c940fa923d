/**
 * Upload media: POST {chat_url}/v1/{channel}/media, multipart (docs/api.md "Upload media"). Type
 * and size are checked before a byte is sent, and the file streams: only its length is needed up
 * front.
 */
import { z } from 'zod';
import type { ApiCall } from '../http/api-caller';
import {
	answerId,
	answerRecord,
	answerRecordId,
	answerText,
	answerWholeNumber,
	essentialAnswer,
} from '../http/answer-values';
import { SmsLeopardValidationError } from '../http/errors';
import { identifier, plainText } from '../values/identifiers';
import {
	MEDIA_MIME_TYPES,
	MEDIA_SIZE_LIMITS,
	type MediaCategory,
	categoryOfMimeType,
	essenceOf,
	formatBytes,
} from './media-types';
import type { FileContent, MultipartFile } from '../http/transport';
import { validateInput } from '../http/validation';
import { echo } from '../http/echo';

/** A file to upload: a stream factory with its exact length, or a buffer for small files. */
export type MediaSource =
	| {
			open(): FileContent | Promise<FileContent>;
			length: number;
			mimeType: string;
			fileName: string;
	  }
	| { data: Buffer; mimeType: string; fileName: string };

export interface UploadMediaRequest {
	/** The `phone_number_id` of the sender number that will send the template. */
	phoneNumberId: string;
	file: MediaSource;
	/** Media category; inferred from the MIME type when absent, refused when it contradicts it. */
	type?: MediaCategory;
	/** Display file name; for documents, the attachment name. Defaults to the file's own name. */
	fileName?: string;
}

const fileSchema = z
	.object({
		mimeType: z
			.string({ required_error: 'is required', invalid_type_error: 'must be a MIME type as text' })
			.min(1, 'is required'),
		fileName: plainText('a file name').pipe(z.string().trim().min(1, 'is required')),
		length: z.number().int().nonnegative().optional(),
		data: z.instanceof(Buffer).optional(),
		open: z.function().optional(),
	})
	.passthrough();

const uploadInput = z.object({
	phoneNumberId: identifier("the sender number's phone_number_id"),
	file: fileSchema,
	type: z
		.enum(['document', 'image', 'video'], {
			errorMap: () => ({ message: 'must be document, image or video' }),
		})
		.optional(),
	fileName: plainText('a file name').pipe(z.string().trim().min(1, 'is empty')).optional(),
});

export interface PreparedUpload {
	fields: Record<string, string>;
	file: MultipartFile;
	category: MediaCategory;
}

function refuse(field: string, message: string): never {
	throw new SmsLeopardValidationError([{ field, message }]);
}

/** Checks an upload and prepares its multipart parts; nothing is read or sent. */
export function prepareUpload(request: UploadMediaRequest): PreparedUpload {
	const input = validateInput(uploadInput, request);
	const source = request.file;
	const mimeType = essenceOf(input.file.mimeType);
	const category = categoryOfMimeType(mimeType);
	if (!category) {
		const allowed = Object.values(MEDIA_MIME_TYPES).flat().join(', ');
		refuse('file.mimeType', `"${echo(mimeType)}" cannot be uploaded: use one of ${allowed}`);
	}
	if (input.type && input.type !== category) {
		refuse(
			'type',
			`is "${echo(input.type)}" but the file is ${echo(mimeType)}, which is ${category} media: set type to "${category}" or leave it empty`,
		);
	}
	// A buffer when `data` holds one (the schema allows only a Buffer or nothing there); otherwise
	// a stream, which then needs both `open` and `length`. `{ data: undefined, ... }` is a stream
	// source, not a buffer source: reading `data.length` of it would be a TypeError.
	const data = 'data' in source ? source.data : undefined;
	const streamed = source as Partial<{ open: unknown; length: unknown }>;
	const length = data !== undefined ? data.length : streamed.length;
	if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
		refuse('file.length', 'must be the exact size of the file in bytes');
	}
	const streamOpen = streamed.open;
	if ((data === undefined || 'open' in source) && typeof streamOpen !== 'function') {
		refuse('file.open', 'must be a function returning a readable stream of the file');
	}
	const open =
		data !== undefined
			? () => data
			: () => (streamOpen as () => FileContent | Promise<FileContent>).call(source);
	if (length === 0) refuse('file', 'is empty: choose a file with content');
	const limit = MEDIA_SIZE_LIMITS[category];
	if (length > limit) {
		refuse(
			'file',
			`is ${formatBytes(length)}, over the ${formatBytes(limit)} limit for ${category} media: send a smaller file`,
		);
	}
	const fileName = input.fileName ?? input.file.fileName;
	return {
		category,
		fields: {
			phone_number_id: input.phoneNumberId,
			type: category,
			file_name: fileName,
		},
		file: { fieldName: 'file', fileName, contentType: mimeType, length, open },
	};
}

// Odd fields become null with a note (answer-values.ts), except media_id: without it nothing can be
// sent with the upload, so such an answer is an error naming the field.
export const mediaRecordSchema = answerRecord({
	id: answerRecordId,
	phone_number_id: answerId,
	media_id: essentialAnswer(answerId, 'the upload cannot be used in a send without its media_id'),
	media_type: answerText,
	mime_type: answerText,
	file_name: answerText,
	file_size: answerWholeNumber,
});

export type MediaRecord = z.infer<typeof mediaRecordSchema>;

export function uploadMediaCall(channel: string, upload: PreparedUpload): ApiCall<MediaRecord> {
	return {
		operation: `Upload media '${upload.file.fileName}'`,
		host: 'chat',
		method: 'POST',
		path: `/v1/${channel}/media`,
		body: { type: 'multipart', fields: upload.fields, file: upload.file },
		// A repeated upload makes at most a second, unused media record: safe to retry.
		idempotent: true,
		response: mediaRecordSchema,
	};
}
