// POST {chat}/v1/{channel}/media (docs/api.md "Upload media"). Parts may come in any order, so
// everything is judged once the body has been streamed through; the file itself is never kept.
import { MEDIA_MIME_TYPES, describeLimit } from './media-types';
import type { SandboxContext } from './context';
import { consumeMultipart, type UploadSummary } from './multipart-stream';
import { senderByPhoneNumberId } from './senders';
import type { Exchange } from './server';
import type { Checked, MediaRecord, MediaType, Problem } from './types';

const MEDIA_TYPES: readonly string[] = ['document', 'image', 'video'];
const bad = (message: string): Problem => ({ status: 400, code: 'bad_request', message });
const no = (problem: Problem): Checked<never> => ({ ok: false, problem });

type Accepted = Omit<MediaRecord, 'id' | 'media_id'>;

function supportedList(): string {
	return Object.entries(MEDIA_MIME_TYPES)
		.map(([category, mimes]) => `${category}: ${mimes.join(', ')}`)
		.join('; ');
}

function judge(summary: UploadSummary, ctx: SandboxContext): Checked<Accepted> {
	const { fields, file } = summary;
	if (summary.error) return no(bad(`Malformed multipart/form-data body: ${summary.error}`));
	if (file?.tooLarge && file.category) {
		const message = `File '${file.fileName}' (${file.mimeType}) exceeds the ${describeLimit(file.category)} limit for ${file.category} media`;
		return no({ status: 413, code: 'file_too_large', message });
	}
	if (summary.fileSentAsField) {
		return no(
			bad(
				"Part 'file' arrived as a plain field: send it as a file part (Content-Disposition with a filename, and the file's Content-Type)",
			),
		);
	}
	if (summary.unexpectedFileParts.length > 0) {
		const names = summary.unexpectedFileParts.map((n) => `'${n}'`).join(', ');
		return no(bad(`Unexpected file part(s) ${names}: the file goes in the part named 'file'`));
	}
	if (summary.extraFileParts > 0) return no(bad('Only one file part is accepted per upload'));
	const phoneNumberId = fields.phone_number_id;
	if (phoneNumberId === undefined || phoneNumberId.trim() === '') {
		return no(bad("Part 'phone_number_id' is required: the phone_number_id of the sending number"));
	}
	const sender = senderByPhoneNumberId(ctx.state, phoneNumberId);
	if (!sender.ok) return sender;
	if (!file) return no(bad("Part 'file' is required: the document, image or video to upload"));
	const type = fields.type;
	if (type !== undefined && !MEDIA_TYPES.includes(type)) {
		const message = `Part 'type' must be document, image or video (lower case), got '${type}'`;
		return no({ status: 400, code: 'invalid_format', message });
	}
	if (!file.category) {
		const message = `MIME type '${file.mimeType}' (the Content-Type of the file part) is not supported; supported types are ${supportedList()}`;
		return no({ status: 400, code: 'unsupported_media_type', message });
	}
	if (type !== undefined && type !== file.category) {
		const message = `Part 'type' is '${type}' but the file's MIME type '${file.mimeType}' is ${file.category} media; send type '${file.category}' or omit it`;
		return no({ status: 400, code: 'media_type_mismatch', message });
	}
	if (file.size === 0) {
		return no({ status: 400, code: 'empty_file', message: `File '${file.fileName}' is empty` });
	}
	if (fields.file_name !== undefined && fields.file_name.trim() === '') {
		return no(bad("Part 'file_name' must not be empty (omit it to use the file part's filename)"));
	}
	const fileName = fields.file_name ?? file.fileName;
	if (fileName === '') {
		return no(bad("No file name: give the file part a filename or send a 'file_name' part"));
	}
	return {
		ok: true,
		value: {
			phone_number_id: sender.value.phone_number_id,
			media_type: file.category as MediaType,
			mime_type: file.mimeType,
			file_name: fileName,
			file_size: file.size,
		},
	};
}

/**
 * Long numeric strings, like the channel operator's ids. Odd and between 2^53 and 2^54, so no
 * double can hold one exactly: a client that turns it into a number corrupts it and fails at send.
 */
function nextMediaId(ctx: SandboxContext): string {
	ctx.sequences.mediaId += 1;
	return (9_700_000_000_000_000n + BigInt(ctx.sequences.mediaId) * 38n + 1n).toString();
}

export async function handleMediaUpload(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const contentType = ex.req.headers['content-type'] ?? '';
	if (!/^multipart\/form-data/i.test(contentType)) {
		const message = `Upload must be multipart/form-data with parts phone_number_id, file, and optionally type and file_name (got ${contentType === '' ? 'no Content-Type' : `'${contentType}'`})`;
		return ex.fail(bad(message));
	}
	const summary = await consumeMultipart(ex.req);
	const file = summary.file;
	ex.record.body = {
		fields: summary.fields,
		...(file && {
			file: {
				fieldName: file.fieldName,
				fileName: file.fileName,
				mimeType: file.mimeType,
				size: file.size,
			},
		}),
	};
	if (summary.aborted) return; // nobody is left to answer
	const verdict = judge(summary, ctx);
	if (!verdict.ok) return ex.fail(verdict.problem);
	const record: MediaRecord = {
		id: ctx.counters.mediaRecord++,
		phone_number_id: verdict.value.phone_number_id,
		media_id: nextMediaId(ctx),
		media_type: verdict.value.media_type,
		mime_type: verdict.value.mime_type,
		file_name: verdict.value.file_name,
		file_size: verdict.value.file_size,
	};
	ctx.state.media.push(record);
	return ex.reply(200, record);
}
