/**
 * Uploads of a file from an item's binary data, shared across the items of one execution: the same
 * file for the same sender is uploaded once (Media > Upload, and Send Template's header file).
 */
import { type MediaCategory, type MediaRecord, categoryOfMimeType, prepareUpload } from '../client';
import type { IExecuteFunctions } from 'n8n-workflow';
import { type BinaryMedia, readBinaryMedia } from './binary-media';
import type { ExecutionState } from './execution-state';
import { checkSenderOnce } from './sender-check';

export async function uploadShared(
	state: ExecutionState,
	phoneNumberId: string,
	media: BinaryMedia,
	options: { type?: MediaCategory; fileName?: string } = {},
): Promise<MediaRecord> {
	const key = [
		phoneNumberId,
		media.key,
		media.mimeType,
		options.type ?? '',
		options.fileName ?? media.fileName,
	].join('|');
	// A failed upload is not kept: the next item that needs the file tries again.
	const record = await state.once.get(
		'upload',
		key,
		async () =>
			await state.client.uploadMedia({
				phoneNumberId,
				file: media.source,
				type: options.type,
				fileName: options.fileName,
			}),
	);
	const category = categoryOfMimeType(record.mime_type ?? media.mimeType);
	if (category) state.mediaCategories.set(record.media_id, category);
	return record;
}

export async function uploadFromItem(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	phoneNumberId: string,
	field: string,
	options: { type?: MediaCategory; fileName?: string } = {},
): Promise<MediaRecord> {
	const media = await readBinaryMedia(context, itemIndex, field, state.once);
	// The file's own checks, then the sender's, all before a byte of the file is sent.
	prepareUpload({ phoneNumberId, file: media.source, ...options });
	await checkSenderOnce(state, phoneNumberId);
	return await uploadShared(state, phoneNumberId, media, options);
}
