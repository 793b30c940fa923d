/**
 * The header file of a send: none, a media ID from an earlier upload, or a file from the item's binary
 * data, uploaded first. Uploads are shared across the items of one execution: the same file for the
 * same sender is uploaded once, however many recipients get it.
 */
import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { MediaRecord } from '../client';
import type { ExecutionState } from '../actions/operation';
import { readBinaryMedia } from './binary-media';

export function headerMediaFields(show: NonNullable<IDisplayOptions['show']>): INodeProperties[] {
	return [
		{
			displayName: 'Header Media',
			name: 'headerMedia',
			type: 'options',
			default: 'none',
			description: 'For templates with a document, image or video header',
			options: [
				{ name: 'None', value: 'none' },
				{
					name: 'Media ID',
					value: 'mediaId',
					description: 'A media_id returned by Media > Upload',
				},
				{
					name: 'File From Input Binary',
					value: 'binary',
					description: 'Upload a file of the input item, then send with it',
				},
			],
			displayOptions: { show },
		},
		{
			displayName: 'Media ID',
			name: 'mediaId',
			type: 'string',
			default: '',
			required: true,
			description:
				'The media_id from Media > Upload. Its type must match the header: document, image or video.',
			displayOptions: { show: { ...show, headerMedia: ['mediaId'] } },
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the file',
			displayOptions: { show: { ...show, headerMedia: ['binary'] } },
		},
		{
			displayName: 'Document File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description:
				'Name the recipient sees for a document header. Leave empty to use the name given at upload. Document headers only.',
			displayOptions: { show: { ...show, headerMedia: ['mediaId', 'binary'] } },
		},
	];
}

export interface HeaderMedia {
	mediaId?: string;
	fileName?: string;
	/** The media record when this item's file was uploaded (or reused from an earlier item). */
	uploaded?: MediaRecord;
}

export async function resolveHeaderMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	phoneNumberId: string,
): Promise<HeaderMedia> {
	const choice = context.getNodeParameter('headerMedia', itemIndex, 'none') as string;
	if (choice === 'none') return {};
	const fileName =
		((context.getNodeParameter('fileName', itemIndex, '') as string) || '').trim() || undefined;
	if (choice === 'mediaId') {
		const mediaId = (context.getNodeParameter('mediaId', itemIndex, '') as string).trim();
		return { mediaId, fileName };
	}
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const uploaded = await uploadOnce(context, itemIndex, state, phoneNumberId, field);
	return { mediaId: uploaded.media_id, fileName, uploaded };
}

export async function uploadOnce(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	phoneNumberId: string,
	field: string,
	options: { type?: 'document' | 'image' | 'video'; fileName?: string } = {},
): Promise<MediaRecord> {
	const media = await readBinaryMedia(context, itemIndex, field);
	const key = [
		phoneNumberId,
		media.key,
		media.mimeType,
		options.type ?? '',
		options.fileName ?? media.fileName,
	].join('|');
	let upload = state.uploads.get(key);
	if (!upload) {
		upload = state.client.uploadMedia({
			phoneNumberId,
			file: media.source,
			type: options.type,
			fileName: options.fileName,
		});
		state.uploads.set(key, upload);
		// A failed upload is not cached: the next item that needs the file tries again.
		upload.catch(() => state.uploads.delete(key));
	}
	return await upload;
}
