/** Media > Upload: a file from the item's binary data, streamed to SMSLeopard; outputs its media_id. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { type CheckedUpload, checkUploadFromItem, uploadShared } from '../../helpers/media-upload';
import { inputBinaryField, optionsCollection, senderNumberField } from '../common.fields';
import { toJson } from '../../helpers/output';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';

const show = { resource: ['media'], operation: ['upload'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		...senderNumberField,
		description: 'The sender number that will send the template using this media',
	},
	{
		...inputBinaryField,
		description:
			'Documents (PDF, text, Word, Excel, PowerPoint) up to 100 MB, images (JPEG, PNG) up to 5 MB, videos (MP4, 3GPP) up to 16 MB',
	},
	optionsCollection('options', [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			description:
				"Display name; for documents, the attachment name. Defaults to the file's own name.",
		},
		{
			displayName: 'Media Type',
			name: 'type',
			type: 'options',
			default: 'auto',
			description: 'Must match the header of the templates that will use this media',
			options: [
				{ name: "From the File's MIME Type", value: 'auto' },
				{ name: 'Document', value: 'document' },
				{ name: 'Image', value: 'image' },
				{ name: 'Video', value: 'video' },
			],
		},
	]),
]);

/** Reads and checks the item's file and sender; the router checks every item before any upload. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): Promise<CheckedUpload> {
	const phoneNumberId = this.getNodeParameter('senderNumber', itemIndex, '', {
		extractValue: true,
	}) as string;
	const field = this.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
	const options = this.getNodeParameter('options', itemIndex, {}) as {
		fileName?: string;
		type?: string;
	};
	const type =
		options.type && options.type !== 'auto'
			? (options.type as 'document' | 'image' | 'video')
			: undefined;
	const fileName = options.fileName?.trim() || undefined;
	return await checkUploadFromItem(this, itemIndex, state, phoneNumberId, field, {
		type,
		fileName,
	});
}

export async function execute(
	this: IExecuteFunctions,
	_itemIndex: number,
	state: ExecutionState,
	checked: CheckedUpload,
): Promise<IDataObject> {
	return toJson(await uploadShared(state, checked.media, checked.prepared));
}
