/**
 * Uploads of a file from an item's binary data, shared across the items of one execution: the same
 * file for the same sender is uploaded once (Media > Upload, and Send Template's header file).
 */
import {
	type MediaCategory,
	type MediaRecord,
	type PreparedUpload,
	categoryOfMimeType,
	prepareUpload,
} from '../client';
import type { IExecuteFunctions } from 'n8n-workflow';
import { type BinaryMedia, readBinaryMedia } from './binary-media';
import type { ExecutionState } from './execution-state';
import { checkSenderOnce, forgetKeptSender } from './sender-check';
import { settle } from '../client/http/settle';
import { refutesKeptListing } from './run-listings';

/** Uploads a checked file, once per execution for the same file, sender, type and name. */
export async function uploadShared(
	state: ExecutionState,
	media: BinaryMedia,
	prepared: PreparedUpload,
): Promise<MediaRecord> {
	const { phone_number_id: sender, type, file_name: fileName } = prepared.fields;
	const key = [sender, media.key, prepared.file.contentType, type, fileName].join('|');
	// A failed upload is not kept: the next item that needs the file tries again.
	const record = await state.once.get('upload', key, async () => {
		const uploaded = await settle(async () => await state.client.uploadPreparedMedia(prepared));
		if (uploaded.ok) return uploaded.value;
		// Refused (400, 404): the sender kept from an earlier execution may be gone.
		if (refutesKeptListing(uploaded.error)) forgetKeptSender(state, sender);
		throw uploaded.error;
	});
	const category = categoryOfMimeType(record.mime_type ?? media.mimeType);
	if (category) state.mediaCategories.set(record.media_id, category);
	return record;
}

export interface CheckedUpload {
	media: BinaryMedia;
	prepared: PreparedUpload;
}

/** Reads an item's file and checks it and its sender, all before a byte of the file is sent. */
export async function checkUploadFromItem(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	phoneNumberId: string,
	field: string,
	options: { type?: MediaCategory; fileName?: string } = {},
): Promise<CheckedUpload> {
	const media = await readBinaryMedia(context, itemIndex, field, state.once);
	const prepared = prepareUpload({ phoneNumberId, file: media.source, ...options });
	await checkSenderOnce(state, phoneNumberId);
	return { media, prepared };
}
