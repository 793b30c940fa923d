/**
 * What media upload accepts (docs/api.md "Accepted media"): the MIME types of each category and its
 * size limit.
 */

export type MediaCategory = 'document' | 'image' | 'video';

const MB = 1024 * 1024;

export const MEDIA_SIZE_LIMITS: Record<MediaCategory, number> = {
	document: 100 * MB,
	image: 5 * MB,
	video: 16 * MB,
};

export const MEDIA_MIME_TYPES: Record<MediaCategory, readonly string[]> = {
	document: [
		'application/pdf',
		'text/plain',
		'application/msword',
		'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		'application/vnd.ms-excel',
		'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		'application/vnd.ms-powerpoint',
		'application/vnd.openxmlformats-officedocument.presentationml.presentation',
		'application/vnd.oasis.opendocument.text',
		'application/vnd.oasis.opendocument.spreadsheet',
		'application/vnd.oasis.opendocument.presentation',
	],
	image: ['image/jpeg', 'image/png'],
	video: ['video/mp4', 'video/3gpp'],
};

/**
 * `text/plain; charset=utf-8` and `IMAGE/PNG` name the same type as `text/plain` and `image/png`.
 */
export function essenceOf(mimeType: string): string {
	return mimeType.split(';')[0].trim().toLowerCase();
}

export function categoryOfMimeType(mimeType: string): MediaCategory | undefined {
	const essence = essenceOf(mimeType);
	for (const category of Object.keys(MEDIA_MIME_TYPES) as MediaCategory[]) {
		if (MEDIA_MIME_TYPES[category].includes(essence)) return category;
	}
	return undefined;
}

export function formatBytes(bytes: number): string {
	if (bytes >= MB) return `${(bytes / MB).toFixed(bytes % MB === 0 ? 0 : 1)} MB`;
	if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${bytes} bytes`;
}
