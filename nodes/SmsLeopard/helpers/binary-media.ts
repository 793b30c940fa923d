/**
 * Reads a file from an item's binary field as an upload source. In filesystem (or S3) mode the file
 * streams from n8n's binary store and only its size is known up front; in the default mode the data
 * already sits in the item as base64 and is decoded once.
 */
import { createHash } from 'crypto';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import type { MediaSource } from '../client';

export interface BinaryMedia {
	source: MediaSource;
	/** Identifies the file's content for the per-execution upload cache. */
	key: string;
	fileName: string;
	mimeType: string;
}

function fallbackName(binary: IBinaryData, field: string): string {
	if (binary.fileName) return binary.fileName;
	return binary.fileExtension ? `${field}.${binary.fileExtension}` : field;
}

/**
 * Identifies a stored file by its content, streamed through sha256 once per binary id: items that
 * carry copies of one file under different ids still share one upload.
 */
async function contentKey(
	cache: Map<string, Promise<string>>,
	id: string,
	open: () => Promise<NodeJS.ReadableStream>,
): Promise<string> {
	let key = cache.get(id);
	if (!key) {
		key = open().then(
			async (stream) =>
				await new Promise<string>((resolve, reject) => {
					const hash = createHash('sha256');
					stream
						.on('data', (chunk: Buffer) => hash.update(chunk))
						.on('error', reject)
						.on('end', () => resolve(`sha256:${hash.digest('hex')}`));
				}),
		);
		cache.set(id, key);
		key.catch(() => cache.delete(id));
	}
	return await key;
}

export async function readBinaryMedia(
	context: IExecuteFunctions,
	itemIndex: number,
	field: string,
	contentKeys: Map<string, Promise<string>>,
): Promise<BinaryMedia> {
	const binary = context.helpers.assertBinaryData(itemIndex, field);
	const fileName = fallbackName(binary, field);
	const mimeType = binary.mimeType;
	if (binary.id) {
		const id = binary.id;
		const metadata = await context.helpers.getBinaryMetadata(id);
		const open = async () => await context.helpers.getBinaryStream(id);
		return {
			key: await contentKey(contentKeys, id, open),
			fileName,
			mimeType,
			source: { fileName, mimeType, length: metadata.fileSize, open },
		};
	}
	const data = await context.helpers.getBinaryDataBuffer(itemIndex, field);
	return {
		key: `sha256:${createHash('sha256').update(data).digest('hex')}`,
		fileName,
		mimeType,
		source: { data, fileName, mimeType },
	};
}
