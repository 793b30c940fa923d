/**
 * The send answers' plain readers (client/http/plain-answer.ts) give exactly what their zod schemas give,
 * for any answer they take, and they take the answers the service gives: a send answer is read once
 * per send, so these readers are the hot path, and the schemas stay the definition.
 */
import fc from 'fast-check';
import type { ZodTypeAny } from 'zod';

import {
	readSendTemplateAnswer,
	sendTemplateResponseSchema,
} from '../../nodes/SmsLeopard/client/whatsapp/messages';
import { readSendSmsAnswer, sendSmsResponseSchema } from '../../nodes/SmsLeopard/client/sms/sms';
import { SENDERS, TEMPLATES } from '../sandbox';
import { type SandboxClient, startSandboxClient } from '../support/sandbox-client';

/** Every object's keys in order, all the way down: zod and the readers must agree on order too. */
function keyOrder(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(keyOrder);
	if (value && typeof value === 'object') {
		return Object.entries(value).map(([key, inner]) => [key, keyOrder(inner)]);
	}
	return value;
}

/** The plain reader's answer equals the schema's, or the reader leaves the answer to the schema. */
function expectSameReading(
	read: (value: unknown) => unknown,
	schema: ZodTypeAny,
	value: unknown,
): boolean {
	const plain = read(value);
	if (plain === undefined) return false;
	const parsed = schema.safeParse(value);
	expect(parsed.success).toBe(true);
	expect(plain).toStrictEqual(parsed.data);
	expect(keyOrder(plain)).toStrictEqual(keyOrder(parsed.data));
	return true;
}

/** Odd values of every kind, undefined included (a caller's object, not JSON, can hold it). */
const odd = fc.oneof(
	fc.constantFrom<unknown>(
		undefined,
		null,
		'',
		' ',
		'null',
		0,
		-0,
		1.5,
		true,
		[],
		{},
		'x'.repeat(1001),
	),
	fc.anything(),
);
/** A recipient entry: mostly as the service writes it, now and then odd in any field. */
const entry = fc.oneof(
	{
		arbitrary: fc.record(
			{
				id: fc.oneof(fc.uuid(), fc.constantFrom('wamid.RS1', 42), odd),
				number: fc.oneof(fc.constantFrom('+254712345678', '254700000001', 254700000001), odd),
				status: fc.oneof(fc.constantFrom('Success', 'queued', 'Failed'), odd),
				cost: fc.oneof(fc.constantFrom(0.8, '0.80', 1), odd),
				notes: odd,
				extra: odd,
			},
			{ requiredKeys: [] },
		),
		weight: 6,
	},
	{ arbitrary: odd, weight: 1 },
);
/** Fields beyond the schema's, with any values, undefined included. */
const others = fc.dictionary(
	fc.constantFrom('message', 'success', 'cost', 'balance', 'recipients', 'status', 'z'),
	odd,
	{ maxKeys: 4 },
);
const answer = fc
	.record(
		{
			success: fc.oneof({ arbitrary: fc.boolean(), weight: 6 }, { arbitrary: odd, weight: 1 }),
			message: fc.oneof(
				{ arbitrary: fc.constantFrom('Sent to 1/1. Cost KES 0.80'), weight: 6 },
				{ arbitrary: odd, weight: 1 },
			),
			recipients: fc.oneof(
				{ arbitrary: fc.array(entry, { maxLength: 5 }), weight: 8 },
				{ arbitrary: odd, weight: 1 },
			),
		},
		{ requiredKeys: [] },
	)
	.chain((shaped) =>
		// The schema's fields after the others or before them.
		fc
			.tuple(others, fc.boolean())
			.map(([extra, first]) => (first ? { ...shaped, ...extra } : { ...extra, ...shaped })),
	);
/** Anything at all, and answers as JSON.parse gives them (a `__proto__` field among them). */
const anyAnswer = fc.oneof(
	{ arbitrary: answer, weight: 8 },
	{
		arbitrary: fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown),
		weight: 1,
	},
	{
		arbitrary: fc.constantFrom<unknown>(
			JSON.parse('{"__proto__":{"x":1},"success":true,"recipients":[]}'),
			JSON.parse('{"recipients":[{"id":"a"}],"__proto__":{"y":2}}'),
			Object.assign(Object.create({ inherited: 1 }), { success: true, recipients: [] }),
			Object.assign(Object.create(null), { success: true, recipients: [{ id: 'a' }] }),
			new Date(0),
		),
		weight: 1,
	},
);

describe('the send answers read without zod', () => {
	it.each([
		['Send Template', readSendTemplateAnswer, sendTemplateResponseSchema],
		['Send SMS', readSendSmsAnswer, sendSmsResponseSchema],
	] as const)(
		'%s: the plain reading equals the schema’s, for any answer (property)',
		(_, read, schema) => {
			let taken = 0;
			fc.assert(
				fc.property(anyAnswer, (value) => {
					if (expectSameReading(read, schema, value)) taken += 1;
				}),
				{ numRuns: 2000 },
			);
			// The readers take most answers: a property that only ever deferred to zod proves nothing.
			expect(taken).toBeGreaterThan(200);
		},
	);

	it('leaves what zod reads differently to zod: inherited fields, a __proto__ field, non-records', () => {
		const odd = [
			JSON.parse('{"__proto__":{"x":1},"success":true,"recipients":[]}'),
			Object.assign(Object.create({ inherited: 1 }), { success: true, recipients: [] }),
			Object.assign(Object.create(null), { success: true, recipients: [{ id: 'a' }] }),
			[{ success: true, recipients: [] }],
			null,
		];
		for (const value of odd) {
			expect(readSendSmsAnswer(value)).toBeUndefined();
			expect(readSendTemplateAnswer(value)).toBeUndefined();
		}
	});
});

describe('the client reads the sandbox’s send answers without zod', () => {
	let env: SandboxClient;
	beforeAll(async () => {
		env = await startSandboxClient();
	});
	afterAll(async () => await env.close());
	afterEach(() => jest.restoreAllMocks());

	it('Send Template and Send SMS: the schema is not parsed for a usual answer', async () => {
		const templateParse = jest.spyOn(sendTemplateResponseSchema, 'safeParse');
		const smsParse = jest.spyOn(sendSmsResponseSchema, 'safeParse');
		const sent = await env.client.sendTemplate({
			phoneNumberId: SENDERS.primary.phone_number_id,
			templateId: TEMPLATES.bodyOnly.id,
			destination: '+254712345678',
			variables: {
				body: [
					{ placeholder: 1, value: 'Amina' },
					{ placeholder: 2, value: 'A-17' },
				],
			},
		});
		const texted = await env.client.sendSms({
			source: 'SMS_Leopard',
			message: 'Flash sale today',
			recipients: [{ number: '+254712345678' }, { number: '+254712345679' }],
		});
		expect(sent.recipients[0].id).toEqual(expect.any(String));
		expect(texted.recipients.map((recipient) => recipient.number)).toHaveLength(2);
		expect(templateParse).not.toHaveBeenCalled();
		expect(smsParse).not.toHaveBeenCalled();
	});
});
