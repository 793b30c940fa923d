// Streams a multipart/form-data body through busboy, keeping only part names, small field values
// and a byte count for the file. File bytes are counted and dropped as they arrive, so memory stays
// flat whatever the upload size (docs/api.md "Upload media": only metadata is kept).
import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { MEDIA_LIMITS, mediaCategoryOf } from './media-types';
import type { MediaType } from './types';

export interface UploadedFile {
	fieldName: string;
	fileName: string;
	mimeType: string;
	size: number;
	category: MediaType | null;
	/** Set once the size passes the category limit; parsing stops there. */
	tooLarge: boolean;
}

export interface UploadSummary {
	fields: Record<string, string>;
	file?: UploadedFile;
	/** A part named `file` that had no filename, so it arrived as a text field. */
	fileSentAsField: boolean;
	unexpectedFileParts: string[];
	extraFileParts: number;
	/** Malformed multipart, as reported by busboy. */
	error?: string;
	/** The client went away before the body ended. */
	aborted: boolean;
}

export function consumeMultipart(req: IncomingMessage): Promise<UploadSummary> {
	return new Promise((resolve) => {
		const summary: UploadSummary = {
			fields: {},
			fileSentAsField: false,
			unexpectedFileParts: [],
			extraFileParts: 0,
			aborted: false,
		};
		let settled = false;
		const finish = () => {
			if (settled) return;
			settled = true;
			resolve(summary);
		};
		req.on('close', () => {
			if (!req.complete) {
				summary.aborted = true;
				finish();
			}
		});
		// Answer only once the client has sent everything: clients that write the whole body
		// before reading (most do) would otherwise see a reset connection instead of our answer.
		const drainThenFinish = () => {
			req.resume();
			if (req.readableEnded) finish();
			else req.once('end', finish);
		};

		let parser: busboy.Busboy;
		try {
			parser = busboy({
				headers: req.headers,
				defParamCharset: 'utf8',
				limits: { fieldSize: 64 * 1024, fields: 50, parts: 100 },
			});
		} catch (err) {
			summary.error = err instanceof Error ? err.message : String(err);
			drainThenFinish();
			return;
		}
		const stopParsing = () => {
			req.unpipe(parser);
			drainThenFinish();
		};

		parser.on('field', (name, value) => {
			if (name === 'file') summary.fileSentAsField = true;
			else summary.fields[name] = value;
		});
		parser.on('file', (name, stream, info) => {
			if (name !== 'file' || summary.file) {
				if (name !== 'file') summary.unexpectedFileParts.push(name);
				else summary.extraFileParts++;
				stream.resume();
				return;
			}
			// busboy applies RFC 7578's default (text/plain) to a part without Content-Type.
			const mimeType = info.mimeType.toLowerCase();
			const category = mediaCategoryOf(mimeType);
			const file: UploadedFile = {
				fieldName: name,
				fileName: info.filename ?? '',
				mimeType,
				size: 0,
				category,
				tooLarge: false,
			};
			summary.file = file;
			const limit = category ? MEDIA_LIMITS[category] : Number.POSITIVE_INFINITY;
			stream.on('data', (chunk: Buffer) => {
				if (file.tooLarge) return;
				file.size += chunk.length;
				if (file.size > limit) {
					file.tooLarge = true;
					stopParsing();
				}
			});
		});
		parser.on('close', finish);
		parser.on('error', (err: unknown) => {
			summary.error = err instanceof Error ? err.message : String(err);
			stopParsing();
		});
		req.pipe(parser);
	});
}
