/**
 * The header file of a send: none, a media ID from an earlier upload, or a file from the item's binary
 * data, uploaded first. Planning reads what is needed to check the item (the file's type and size)
 * without uploading; the upload happens only once the item passed its checks. Uploads are shared
 * across the items of one execution: the same file for the same sender is uploaded once.
 */
import { noteOncePerRun } from '../../helpers/run-notes';
import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { nodeVersion } from '../../helpers/node-version';
import { inputBinaryField } from '../common.fields';
import {
	type MediaCategory,
	type MediaRecord,
	type TemplateDescription,
	categoryOfMimeType,
	prepareUpload,
} from '../../client';
import { echo } from '../../client/http/echo';
import { readBinaryMedia } from '../../helpers/binary-media';
import type { ExecutionState } from '../../helpers/execution-state';
import { uploadShared } from '../../helpers/media-upload';

function documentFileNameField(show: NonNullable<IDisplayOptions['show']>): INodeProperties {
	return {
		displayName: 'Document File Name',
		name: 'fileName',
		type: 'string',
		default: '',
		description:
			'Name the recipient sees for a document header. Leave empty to use the name given at upload. Document headers only.',
		displayOptions: { show: { headerMedia: ['mediaId', 'binary'], ...show } },
	};
}

/**
 * Whether the document's file name is read from Values to Send (version 1.3 on, From the Template)
 * rather than from Document File Name, which is then not shown.
 */
export function fileNameInValuesToSend(context: IExecuteFunctions, mode: string): boolean {
	return mode === 'template' && nodeVersion(context) >= 1.3;
}

/** Send Template's header file fields (the operation file shows them for Send Template only). */
export const headerMediaFields: INodeProperties[] = [
	{
		displayName: 'Header Media',
		name: 'headerMedia',
		type: 'options',
		default: 'none',
		description:
			'For templates with a document, image or video header: the one place to set it. Ignored, with a notice in the output, when the chosen template has no media header.',
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
	},
	{
		displayName: 'Media ID',
		name: 'mediaId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The media_id from Media > Upload. Its type must match the header: document, image or video.',
		displayOptions: { show: { headerMedia: ['mediaId'] } },
	},
	{ ...inputBinaryField, displayOptions: { show: { headerMedia: ['binary'] } } },
	// Up to 1.2 shown for any header; from 1.3 it is a field of Values to Send, offered for document
	// headers only, and stays here for Define Below and Using JSON, which do not read the template.
	documentFileNameField({ '@version': [{ _cnd: { lt: 1.3 } }] }),
	documentFileNameField({
		'@version': [{ _cnd: { gte: 1.3 } }],
		variablesMode: ['define', 'json'],
	}),
];

/**
 * Header Media left set after switching to a template without a media header: the editor cannot hide
 * it (it does not know the template's header), so the send ignores it and the output says so, once.
 */
export function noteIgnoredHeaderMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	template: TemplateDescription,
): void {
	const choice = context.getNodeParameter('headerMedia', itemIndex, 'none') as string;
	if (choice === 'none') return;
	noteOncePerRun(
		context,
		state,
		`Header Media was ignored: template "${echo(template.name)}" has no document, image or video header. Set Header Media to None to remove this notice.`,
	);
}

export interface HeaderMediaPlan {
	/** Known now for a media ID; after `upload()` for a binary file. */
	mediaId?: string;
	fileName?: string;
	/** The media's category, when known before sending. */
	category?: MediaCategory;
	/** Uploads the item's file (once per execution) and returns its record. */
	upload?: () => Promise<MediaRecord>;
}

/**
 * The type of a media ID, when this run can know it: uploaded by this node earlier in the run, or
 * carried by the input item itself (the output of Media > Upload holds media_id and media_type).
 */
function knownCategory(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	mediaId: string,
): MediaCategory | undefined {
	const uploaded = state.mediaCategories.get(mediaId);
	if (uploaded) return uploaded;
	const json = context.getInputData()[itemIndex]?.json ?? {};
	const type = String(json.media_type ?? '').toLowerCase();
	if (
		String(json.media_id ?? '') === mediaId &&
		(type === 'document' || type === 'image' || type === 'video')
	) {
		return type;
	}
	return undefined;
}

export async function planHeaderMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
	phoneNumberId: string,
): Promise<HeaderMediaPlan> {
	const choice = context.getNodeParameter('headerMedia', itemIndex, 'none') as string;
	if (choice === 'none') return {};
	const fileName =
		((context.getNodeParameter('fileName', itemIndex, '') as string) || '').trim() || undefined;
	if (choice === 'mediaId') {
		const mediaId = String(context.getNodeParameter('mediaId', itemIndex, '')).trim();
		return { mediaId, fileName, category: knownCategory(context, itemIndex, state, mediaId) };
	}
	const field = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const media = await readBinaryMedia(context, itemIndex, field, state.once);
	// Type and size are checked now, before the item's other checks decide whether to upload.
	const prepared = prepareUpload({ phoneNumberId, file: media.source });
	return {
		fileName,
		category: categoryOfMimeType(media.mimeType),
		mediaId: undefined,
		upload: async () => await uploadShared(state, media, prepared),
	};
}
