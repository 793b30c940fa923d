// Header injection, end to end: any string in any field of a send, contact, upload or path
// parameter either fails validation (and nothing is sent) or travels as data inside the body. The
// sandbox's record of what it received never shows an injected header or an extra multipart part.
import fc from 'fast-check';
import {
	SmsLeopardError,
	SmsLeopardValidationError,
	MEDIA_MIME_TYPES,
	type SmsLeopardClient,
} from '../../nodes/SmsLeopard/client';
import { createNodeClient } from '../support/node-http-transport';
import { type RecordedRequest, type Sandbox, SENDERS, TEMPLATES, startSandbox } from '../sandbox';
import { INJECTIONS, nastyString } from './arbitraries';

const RUNS = 2000;
const SENDER = SENDERS.primary.phone_number_id;

/** Every header name the client may legitimately send. */
const ALLOWED_HEADERS = new Set([
	'host',
	'connection',
	'accept',
	'authorization',
	'content-type',
	'content-length',
	'transfer-encoding',
]);
const UPLOAD_FIELDS = new Set(['phone_number_id', 'type', 'file_name']);
const ALL_MIME_TYPES: string[] = Object.values(MEDIA_MIME_TYPES).flat();

let sandbox: Sandbox;
let client: SmsLeopardClient;
let close: () => void;

beforeAll(async () => {
	sandbox = await startSandbox();
	const made = createNodeClient({
		...sandbox.credentialData,
		retry: { maxRetries: 0 },
	});
	client = made.client;
	close = () => made.transport.close();
});
afterAll(async () => {
	close();
	await sandbox.stop();
});

interface Target {
	/** A valid value of the field, to which an injection is appended. */
	base: string;
	call(value: string): Promise<unknown>;
	/** Where the value lands in the JSON body when it is passed through as is. */
	sentAs?: (body: any) => unknown;
}

const body = (...values: string[]) => values.map((value, i) => ({ placeholder: i + 1, value }));
const send = (overrides: Record<string, unknown>) =>
	client.sendTemplate({
		phoneNumberId: SENDER,
		templateId: TEMPLATES.bodyOnly.id,
		destination: '+254712345678',
		variables: { body: body('Ann', 'A-17') },
		...overrides,
	} as never);
const upload = (file: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
	client.uploadMedia({
		phoneNumberId: SENDER,
		file: { data: Buffer.alloc(16, 1), mimeType: 'application/pdf', fileName: 'a.pdf', ...file },
		...overrides,
	} as never);
const contact = (overrides: Record<string, unknown>) =>
	client.createContact({ phoneNumber: '+254722000111', ...overrides } as never);

const TARGETS: Record<string, Target> = {
	'send.destination': { base: '+254712345678', call: (v) => send({ destination: v }) },
	'send.phoneNumberId': { base: SENDER, call: (v) => send({ phoneNumberId: v }) },
	'send.templateId': { base: TEMPLATES.bodyOnly.id, call: (v) => send({ templateId: v }) },
	'send.mediaId': { base: '9700000000000039', call: (v) => send({ mediaId: v }) },
	'send.fileName': { base: 'a.pdf', call: (v) => send({ mediaId: '97', fileName: v }) },
	'send.bodyValue': {
		base: 'Ann',
		call: (v) => send({ variables: { body: body(v, 'A-17') } }),
		sentAs: (b) => b.component_list.components[0].fields[0].value,
	},
	'send.buttonValue': {
		base: 'A-17',
		call: (v) =>
			send({
				templateId: TEMPLATES.urlButton.id,
				variables: { body: body('Ann'), buttons: [{ kind: 'url', index: 0, value: v }] },
			}),
		sentAs: (b) =>
			b.component_list.components.find((c: any) => c.component_type === 'BUTTONS')?.fields[0].value,
	},
	'send.componentListName': {
		base: 'url:0',
		call: (v) =>
			send({
				variables: undefined,
				componentList: {
					components: [{ component_type: 'BUTTONS', fields: [{ name: v, value: 'x' }] }],
				},
			}),
	},
	'send.componentListValue': {
		base: 'Ann',
		call: (v) =>
			send({
				variables: undefined,
				componentList: {
					components: [{ component_type: 'BODY', fields: [{ name: '1', value: v }] }],
				},
			}),
		sentAs: (b) => b.component_list.components[0].fields[0].value,
	},
	'send.componentType': {
		base: 'BODY',
		call: (v) =>
			send({
				variables: undefined,
				componentList: { components: [{ component_type: v, fields: [{ name: '1', value: 'x' }] }] },
			}),
	},
	'send.componentListJson': {
		base: '{"components":[]}',
		call: (v) => send({ variables: undefined, componentList: v }),
	},
	'contact.phoneNumber': { base: '+254722000111', call: (v) => contact({ phoneNumber: v }) },
	'contact.name': { base: 'Ann Wanjiru', call: (v) => contact({ name: v }) },
	'contact.email': { base: 'ann@example.com', call: (v) => contact({ email: v }) },
	'contact.groupId': { base: '1', call: (v) => contact({ groupIds: [v] }) },
	'contact.attributeName': {
		base: 'source',
		call: (v) => contact({ customAttributes: [{ name: v, value: 'web' }] }),
	},
	'contact.attributeValue': {
		base: 'web',
		call: (v) => contact({ customAttributes: [{ name: 'source', value: v }] }),
		sentAs: (b) => b.custom_metadata.fields[0].value,
	},
	'upload.phoneNumberId': { base: SENDER, call: (v) => upload({}, { phoneNumberId: v }) },
	'upload.fileName': { base: 'report.pdf', call: (v) => upload({}, { fileName: v }) },
	'upload.file.fileName': { base: 'report.pdf', call: (v) => upload({ fileName: v }) },
	'upload.file.mimeType': { base: 'application/pdf', call: (v) => upload({ mimeType: v }) },
	'upload.type': { base: 'document', call: (v) => upload({}, { type: v }) },
	'delete.contactId': { base: '1', call: (v) => client.deleteContact(v) },
	'templates.senderId': { base: String(SENDERS.primary.id), call: (v) => client.listTemplates(v) },
	'groups.page': { base: '1', call: (v) => client.getGroupsPage({ page: v as never }) },
};

const attempt = fc.constantFrom(...Object.keys(TARGETS)).chain((field) =>
	fc.record({
		field: fc.constant(field),
		value: fc.oneof(
			{ weight: 3, arbitrary: nastyString },
			{
				weight: 3,
				arbitrary: fc
					.constantFrom(...INJECTIONS)
					.map((injection) => TARGETS[field].base + injection),
			},
			{
				weight: 1,
				arbitrary: fc
					.tuple(fc.nat(TARGETS[field].base.length), fc.constantFrom(...INJECTIONS))
					.map(([at, injection]) => {
						const base = TARGETS[field].base;
						return base.slice(0, at) + injection + base.slice(at);
					}),
			},
			{ weight: 1, arbitrary: fc.constant(TARGETS[field].base) },
		),
	}),
);

/** What is wrong with one received request, from the injection point of view. */
function injectionProblems(request: RecordedRequest): string[] {
	const problems: string[] = [];
	for (const [name, value] of Object.entries(request.headers)) {
		if (!ALLOWED_HEADERS.has(name)) problems.push(`unexpected header ${name}: ${value}`);
		if (/x-injected/i.test(value)) problems.push(`header ${name} carries ${JSON.stringify(value)}`);
	}
	if (request.headers['x-injected'] !== undefined) problems.push('x-injected header arrived');
	const upload = request.body as
		{ fields?: Record<string, string>; file?: { fieldName: string; mimeType: string } } | undefined;
	if (/\/media$/.test(request.path) && upload) {
		for (const name of Object.keys(upload.fields ?? {})) {
			if (!UPLOAD_FIELDS.has(name)) problems.push(`unexpected multipart part ${name}`);
		}
		for (const value of Object.values(upload.fields ?? {})) {
			if (/[\r\n]/.test(value)) problems.push(`line break in part ${JSON.stringify(value)}`);
		}
		if (upload.file && upload.file.fieldName !== 'file') {
			problems.push(`file arrived in part ${upload.file.fieldName}`);
		}
		if (upload.file && !ALL_MIME_TYPES.includes(upload.file.mimeType)) {
			problems.push(`file arrived as ${JSON.stringify(upload.file.mimeType)}`);
		}
	}
	return problems;
}

describe('header injection', () => {
	it('no value in any field reaches the wire as a header or a multipart part', async () => {
		const seen = { refused: 0, sent: 0 };
		await fc.assert(
			fc.asyncProperty(attempt, async ({ field, value }) => {
				const target = TARGETS[field];
				const before = sandbox.requests.length;
				let refused = false;
				try {
					await target.call(value);
				} catch (error) {
					// A validation error, or an answer from the service: anything else is a defect.
					if (!(error instanceof SmsLeopardError)) throw error;
					refused = error instanceof SmsLeopardValidationError;
				}
				const received = sandbox.requests.slice(before);
				if (refused) {
					seen.refused++;
					expect(received).toEqual([]);
					return;
				}
				seen.sent++;
				expect(received).toHaveLength(1);
				expect(injectionProblems(received[0])).toEqual([]);
				if (target.sentAs && received[0].body !== undefined) {
					// Passed through as data: byte for byte the value given, inside the JSON.
					expect(target.sentAs(received[0].body)).toBe(value);
				}
			}),
			{ numRuns: RUNS },
		);
		// Both paths were exercised, or the property proves little.
		expect(seen.refused).toBeGreaterThan(RUNS / 10);
		expect(seen.sent).toBeGreaterThan(RUNS / 10);
	}, 30_000);

	it.each(Object.keys(TARGETS))(
		'%s: a CRLF header injection never arrives as a header',
		async (field) => {
			for (const injection of INJECTIONS) {
				const before = sandbox.requests.length;
				await TARGETS[field].call(TARGETS[field].base + injection).catch((error: unknown) => {
					if (!(error instanceof SmsLeopardError)) throw error;
				});
				for (const request of sandbox.requests.slice(before)) {
					expect(injectionProblems(request)).toEqual([]);
				}
			}
		},
	);
});
