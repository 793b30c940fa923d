// Supported media (docs/api.md "Accepted media"). The "word-processor, spreadsheet and presentation
// files" of the spec are read as the Microsoft Office (legacy and OOXML) and OpenDocument types.
import type { MediaType } from './types';

const MB = 1024 * 1024;

export const MEDIA_LIMITS: Record<MediaType, number> = {
	document: 100 * MB,
	image: 5 * MB,
	video: 16 * MB,
};

export const MEDIA_MIME_TYPES: Record<MediaType, readonly string[]> = {
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

export function mediaCategoryOf(mimeType: string): MediaType | null {
	const mime = mimeType.toLowerCase();
	for (const [category, mimes] of Object.entries(MEDIA_MIME_TYPES)) {
		if (mimes.includes(mime)) return category as MediaType;
	}
	return null;
}

export function describeLimit(category: MediaType): string {
	return `${MEDIA_LIMITS[category] / MB} MB`;
}
