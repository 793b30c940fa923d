/**
 * Builds the multipart body of a media upload with `form-data`, the encoder n8n itself carries. The
 * file part gets its exact length up front, so the body streams with a known Content-Length and no
 * part of the file is held in memory.
 */
import FormData from 'form-data';
import type { MultipartFile } from '../http/transport';

export interface EncodedMultipart {
	form: FormData;
	headers: Record<string, string>;
}

/** Header values cannot break lines: a file name with CR or LF could forge a part header. */
function headerSafe(value: string): string {
	return value.replace(/[\r\n"]/g, '_');
}

export async function encodeMultipart(
	fields: Record<string, string>,
	file: MultipartFile,
): Promise<EncodedMultipart> {
	const form = new FormData();
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	form.append(file.fieldName, await file.open(), {
		filename: headerSafe(file.fileName),
		contentType: headerSafe(file.contentType),
		knownLength: file.length,
	});
	return {
		form,
		headers: { ...form.getHeaders(), 'content-length': String(form.getLengthSync()) },
	};
}
