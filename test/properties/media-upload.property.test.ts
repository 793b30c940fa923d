// Properties of the media checks (docs/api.md "Accepted media"): any MIME type, size, type override
// and file name gives a prepared upload that is within the rules, or a validation error. Nothing
// else escapes.
import { Readable } from 'stream';
import fc from 'fast-check';
import {
	MEDIA_MIME_TYPES,
	MEDIA_SIZE_LIMITS,
	type MediaCategory,
	categoryOfMimeType,
	prepareUpload,
} from '../../nodes/SmsLeopard/client';
import { CRLF, edgeNumber, junk, nastyString, outcome } from './arbitraries';

const RUNS = 3000;
const CONTROL = /[\u0000-\u001f\u007f]/;
const ALL_MIME_TYPES = Object.values(MEDIA_MIME_TYPES).flat();
const LIMITS = Object.values(MEDIA_SIZE_LIMITS);

const mimeType: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom(...ALL_MIME_TYPES) },
	{
		weight: 3,
		arbitrary: fc
			.tuple(
				fc.mixedCase(fc.constantFrom(...ALL_MIME_TYPES)),
				fc.constantFrom('', '; charset=utf-8', ' ; name="x.pdf"', ';\r\nX-Injected: 1', '  '),
			)
			.map(([type, parameters]) => type + parameters),
	},
	{
		weight: 2,
		arbitrary: fc.constantFrom(
			'image/gif',
			'image/svg+xml',
			'application/octet-stream',
			'video/quicktime',
			'image/png\r\nX-Injected: 1',
			'text/html',
			'',
			' ',
		),
	},
	{ weight: 1, arbitrary: nastyString },
	{ weight: 1, arbitrary: junk },
);

/** Sizes around each limit, plus the absurd ones. */
const size: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 4, arbitrary: fc.integer({ min: 1, max: 6 * 1024 * 1024 }) },
	{
		weight: 3,
		arbitrary: fc
			.tuple(fc.constantFrom(...LIMITS), fc.integer({ min: -2, max: 2 }))
			.map(([limit, delta]) => limit + delta),
	},
	{ weight: 2, arbitrary: edgeNumber },
	{ weight: 1, arbitrary: junk },
);

const fileName: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 8, arbitrary: fc.constantFrom('report.pdf', 'photo.jpg', 'clip.mp4', 'a', 'ü ñ.pdf') },
	{ weight: 4, arbitrary: nastyString },
	{ weight: 1, arbitrary: junk },
);

const opener = () => Readable.from([Buffer.alloc(1)]);

/** The file source in every shape a caller could pass, proper or not. */
const source: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 4,
		arbitrary: fc.record({
			open: fc.constant(opener),
			length: size,
			mimeType,
			fileName,
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record({
			data: fc.integer({ min: 0, max: 64 }).map((n) => Buffer.alloc(n, 7)),
			mimeType,
			fileName,
		}),
	},
	{
		weight: 3,
		arbitrary: fc.record(
			{
				data: fc.oneof(
					fc.constant(undefined),
					fc.constant(null),
					fc.constant(Buffer.alloc(3)),
					fc.uint8Array({ maxLength: 4 }),
					junk,
				),
				open: fc.oneof(fc.constant(undefined), fc.constant(opener), junk),
				length: size,
				mimeType,
				fileName,
			},
			{ requiredKeys: [] },
		),
	},
	{ weight: 1, arbitrary: junk },
);

/** Mostly acceptable uploads: a category, one of its MIME types, a size within its limit. */
const goodRequest = fc
	.constantFrom(...(Object.keys(MEDIA_MIME_TYPES) as MediaCategory[]))
	.chain((category) =>
		fc.record(
			{
				phoneNumberId: fc.constantFrom('110000000000001', '2200'),
				file: fc.oneof(
					fc.record({
						open: fc.constant(opener),
						length: fc.oneof(
							fc.integer({ min: 1, max: MEDIA_SIZE_LIMITS[category] }),
							fc.constant(MEDIA_SIZE_LIMITS[category]),
							size,
						),
						mimeType: fc.oneof(
							fc.constantFrom(...MEDIA_MIME_TYPES[category]),
							fc
								.mixedCase(fc.constantFrom(...MEDIA_MIME_TYPES[category]))
								.map((type) => `${type}; charset=utf-8`),
							mimeType,
						),
						fileName,
					}),
					fc.record({
						data: fc.integer({ min: 1, max: 64 }).map((n) => Buffer.alloc(n, 7)),
						mimeType: fc.constantFrom(...MEDIA_MIME_TYPES[category]),
						fileName,
					}),
				),
				type: fc.oneof(fc.constant(category), fc.constantFrom('document', 'image', 'video')),
				fileName,
			},
			{ requiredKeys: ['phoneNumberId', 'file'] },
		),
	);

const request: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 8, arbitrary: goodRequest },
	{
		weight: 9,
		arbitrary: fc.record(
			{
				phoneNumberId: fc.oneof(
					{ weight: 6, arbitrary: fc.constant('110000000000001') },
					{ weight: 2, arbitrary: nastyString },
					{ weight: 1, arbitrary: junk },
				),
				file: source,
				type: fc.oneof(
					{ weight: 4, arbitrary: fc.constantFrom('document', 'image', 'video') },
					{ weight: 1, arbitrary: fc.constantFrom('Image', 'audio', '', 'video\r\n') },
					{ weight: 1, arbitrary: junk },
				),
				fileName,
			},
			{ requiredKeys: ['phoneNumberId', 'file'] },
		),
	},
	{ weight: 1, arbitrary: junk },
);

describe('prepareUpload', () => {
	it('prepares an upload within the rules, or throws a validation error, for any input', () => {
		fc.assert(
			fc.property(request, (input) => {
				const result = outcome(() => prepareUpload(input as never));
				if (!result.ok) {
					expect(result.error.issues.length).toBeGreaterThan(0);
					return;
				}
				const { category, fields, file } = result.value;
				const given = input as { type?: unknown; file: { mimeType: string } };
				const problems: string[] = [];
				if (!Number.isSafeInteger(file.length) || file.length < 1) {
					problems.push(`length ${file.length}`);
				}
				if (file.length > MEDIA_SIZE_LIMITS[category]) {
					problems.push(`${file.length} bytes over the ${category} limit`);
				}
				if (!MEDIA_MIME_TYPES[category].includes(file.contentType)) {
					problems.push(`content type ${JSON.stringify(file.contentType)} not in ${category}`);
				}
				if (categoryOfMimeType(given.file.mimeType) !== category) problems.push('category');
				if (given.type !== undefined && given.type !== category) problems.push('type override');
				if (fields.type !== category) problems.push(`fields.type ${fields.type}`);
				for (const [name, value] of Object.entries({
					'file.fileName': file.fileName,
					'fields.file_name': fields.file_name,
					'file.contentType': file.contentType,
					'fields.phone_number_id': fields.phone_number_id,
				})) {
					if (typeof value !== 'string') problems.push(`${name} is not text`);
					else if (CRLF.test(value) || CONTROL.test(value)) {
						problems.push(`${name} has a control character: ${JSON.stringify(value)}`);
					} else if (value.trim() === '') problems.push(`${name} is blank`);
				}
				// The content factory must work when the transport calls it, not throw then.
				// (This test's sources open synchronously: a buffer, or its own stream factory.)
				const content = file.open();
				if (!(content instanceof Readable) && !Buffer.isBuffer(content)) {
					problems.push('open() gave neither a readable stream nor a buffer');
				}
				if (content instanceof Readable) content.destroy();
				expect(problems).toEqual([]);
			}),
			{ numRuns: RUNS },
		);
	});

	it('accepts every allowed MIME type at every size from 1 byte to its limit, and no more', () => {
		fc.assert(
			fc.property(
				fc.constantFrom(...(Object.keys(MEDIA_MIME_TYPES) as MediaCategory[])),
				fc.nat(),
				fc.integer({ min: 1, max: 10 * 1024 * 1024 }),
				(category, pick, over) => {
					const types = MEDIA_MIME_TYPES[category];
					const type = types[pick % types.length];
					const limit = MEDIA_SIZE_LIMITS[category];
					const upload = (length: number) =>
						outcome(() =>
							prepareUpload({
								phoneNumberId: '110000000000001',
								file: { open: opener, length, mimeType: type, fileName: 'f' },
							}),
						);
					const within = upload(1 + (pick % limit));
					expect(within.ok && within.value.category).toBe(category);
					const beyond = upload(limit + over);
					expect(beyond.ok).toBe(false);
					if (!beyond.ok) expect(beyond.error.field).toBe('file');
				},
			),
			{ numRuns: RUNS },
		);
	});
});
