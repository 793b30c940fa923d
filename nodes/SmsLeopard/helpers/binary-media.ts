/**
 * Reads a file from an item's binary field as an upload source. In filesystem (or S3) mode the file
 * streams from n8n's binary store and only its size is known up front; in the default mode the data
 * already sits in the item as base64 and is decoded once.
 */
import { createHash } from 'crypto';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { type MediaSource, SmsLeopardValidationError } from '../client';
import { echo } from '../client/http/echo';
import { settleNow } from '../client/http/settle';
import type { OncePerRun } from './once-per-run';

export interface BinaryMedia {
	source: MediaSource;
	/** Identifies the file's content for the per-execution upload cache. */
	key: string;
	fileName: string;
	mimeType: string;
}

/**
 * n8n's database binary mode keeps a stored file as one value in the database: every read, as a
 * stream too, loads all of it (n8n's database manager, getAsStream), with the database driver's
 * own copy of its encoding: about 300 MB for a 100 MB file. Hashing and then uploading such a file
 * read it twice (a 100 MB upload raised a queue-mode worker's memory by about 770 MB more than
 * reading the file did); it is read once, and both are done from that one copy.
 */
function isReadWhole(binaryId: string): boolean {
	return binaryId.startsWith('database:');
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

function fallbackName(binary: IBinaryData, field: string): string {
	if (binary.fileName) return binary.fileName;
	return binary.fileExtension ? `${field}.${binary.fileExtension}` : field;
}

/**
 * Identifies a stored file by its content, streamed through sha256 once per binary id: items that
 * carry copies of one file under different ids still share one upload.
 */
async function contentKey(
	once: OncePerRun,
	id: string,
	open: () => Promise<NodeJS.ReadableStream>,
): Promise<string> {
	return await once.get('content-key', id, async () => {
		const stream = await open();
		return await new Promise<string>((resolve, reject) => {
			const hash = createHash('sha256');
			stream
				.on('data', (chunk: Buffer) => hash.update(chunk))
				.on('error', reject)
				.on('end', () => resolve(`sha256:${hash.digest('hex')}`));
		});
	});
}

/**
 * The item's file, or a refusal naming the field: n8n's own error ends in "[item 1]" for the
 * second item, beside this node's "item 2"; one numbering is said, and the fix.
 */
function fileOfItem(context: IExecuteFunctions, itemIndex: number, field: string): IBinaryData {
	const found = settleNow(() => context.helpers.assertBinaryData(itemIndex, field));
	if (found.ok) return found.value;
	const names = Object.keys(context.getInputData()[itemIndex]?.binary ?? {});
	const has = names.length
		? `only the binary field(s) ${names.map((name) => `"${echo(name)}"`).join(', ')}`
		: 'no file';
	throw new SmsLeopardValidationError([
		{
			field: 'file',
			message: `names "${echo(field)}", but the item has ${has}: give the name of the binary field that holds the file (the input's Binary tab shows them)`,
		},
	]);
}

export async function readBinaryMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	once: OncePerRun,
): Promise<BinaryMedia> {
	const binary = fileOfItem(context, itemIndex, field);
	const fileName = fallbackName(binary, field);
	const mimeType = binary.mimeType;
	if (binary.id) {
		const id = binary.id;
		const metadata = await context.helpers.getBinaryMetadata(id);
		const open = async () => await context.helpers.getBinaryStream(id);
		if (isReadWhole(id)) {
			// The first item with this file reads it and keeps the copy for its upload; an item after
			// it needs only the key (the upload is shared), and reads the file only if that failed.
			let data: Buffer | undefined;
			const key = await once.get('content-key', id, async () => {
				data = await context.helpers.getBinaryDataBuffer(itemIndex, field);
				return sha256(data);
			});
			return {
				key,
				fileName,
				mimeType,
				source: data
					? { data, fileName, mimeType }
					: { fileName, mimeType, length: metadata.fileSize, open },
			};
		}
		return {
			key: await contentKey(once, id, open),
			fileName,
			mimeType,
			source: { fileName, mimeType, length: metadata.fileSize, open },
		};
	}
	const data = await context.helpers.getBinaryDataBuffer(itemIndex, field);
	return {
		key: sha256(data),
		fileName,
		mimeType,
		source: { data, fileName, mimeType },
	};
}
