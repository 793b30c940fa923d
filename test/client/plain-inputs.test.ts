/**
 * The send inputs' plain readers give what their zod schemas give, for any input they take: every
 * item of a run is checked before the first send, so these readers are the check's hot path, and
 * the schemas stay the definition. Whatever a reader does not take, zod reads, naming what is wrong.
 */
import fc from 'fast-check';

import {
	readTemplateVariablesPlainly,
	templateVariablesSchema,
} from '../../nodes/SmsLeopard/client/whatsapp/components';
import {
	buildSendTemplateBody,
	readSendTemplateInputPlainly,
	sendTemplateInput,
} from '../../nodes/SmsLeopard/client/whatsapp/messages';

/** Fields holding undefined dropped, all the way down: zod keeps a given-but-undefined field. */
function definedOnly(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(definedOnly);
	if (value && typeof value === 'object') {
		return Object.fromEntries(
			Object.entries(value)
				.filter(([, inner]) => inner !== undefined)
				.map(([key, inner]) => [key, definedOnly(inner)]),
		);
	}
	return value;
}

/** Odd values of every kind, undefined included. */
const odd = fc.oneof(
	fc.constantFrom<unknown>(
		undefined,
		null,
		'',
		' ',
		'\n',
		0,
		-0,
		-1,
		1.5,
		NaN,
		2 ** 53,
		true,
		[],
		{},
		'a b',
		'x\u0000y',
		JSON.parse('{"__proto__":{"x":1}}'),
		Object.create(null),
		new Date(0),
	),
	fc.anything(),
);
/** Mostly usual, now and then odd. */
const usually = <T>(usual: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: usual, weight: 12 }, { arbitrary: odd, weight: 1 });

/** Usual values mostly, any text now and then. */
const mostly = <T>(values: T[], any: fc.Arbitrary<T>) =>
	fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 6 }, { arbitrary: any, weight: 1 });
const text = mostly(['Amina', 'A-17', ' padded ', '\tTab'], fc.string());
const placeholderEntry = fc.record(
	{
		placeholder: usually(fc.integer({ min: 0, max: 4 })),
		value: usually(text),
		extra: odd,
	},
	{ requiredKeys: ['placeholder', 'value'], noNullPrototype: true },
);
const buttonEntry = fc.record(
	{
		kind: usually(fc.constantFrom('url', 'quickReply', 'button', 'placeholder', 'URL')),
		index: usually(fc.integer({ min: -1, max: 3 })),
		placeholder: usually(fc.integer({ min: 0, max: 3 })),
		value: usually(text),
	},
	{ requiredKeys: ['kind', 'value'], noNullPrototype: true },
);
/** Lists mostly without a placeholder or button given twice, now and then with one. */
function entries<T>(entry: fc.Arbitrary<T>, key: (entry: T) => unknown, maxLength: number) {
	return fc.oneof(
		{ arbitrary: fc.uniqueArray(entry, { selector: key, maxLength }), weight: 4 },
		{ arbitrary: fc.array(usually(entry), { maxLength }), weight: 1 },
	);
}
const variables = fc.record(
	{
		header: usually(entries(placeholderEntry, (entry) => entry.placeholder, 2)),
		body: usually(entries(placeholderEntry, (entry) => entry.placeholder, 4)),
		buttons: usually(entries(buttonEntry, (entry) => entry.index, 3)),
	},
	// Null-prototype records are among the odd values: the readers leave them to zod.
	{ requiredKeys: [], noNullPrototype: true },
);
/** Now and then a field the schema does not know, holding anything, undefined included. */
const withOtherField = fc
	.tuple(variables, fc.option(odd, { freq: 8 }))
	.map(([value, other]) => (other === null ? value : { ...value, footer: other }));
const anyVariables = fc.oneof(
	{ arbitrary: withOtherField, weight: 8 },
	{ arbitrary: odd, weight: 1 },
);

const identifierText = mostly(['106540352242922', 'tmpl_01', ' 42 ', 'wamid.A:1-2'], fc.string());
const request = fc.record(
	{
		phoneNumberId: usually(identifierText),
		templateId: usually(identifierText),
		destination: usually(
			fc.oneof(
				fc.constantFrom(
					'+254712345678',
					'254 712-345.678',
					'(0712) 345678',
					'+25471',
					' 0712345678 ',
				),
				fc.string(),
			),
		),
		variables: usually(fc.constant({ body: [{ placeholder: 1, value: 'Amina' }] })),
		componentList: usually(fc.constant('{"components":[]}')),
		mediaId: usually(identifierText),
		fileName: usually(mostly(['Menu.pdf', ' Menu.pdf ', '  ', 'a\nb'], fc.string())),
		mediaToUpload: fc.boolean(),
		other: odd,
	},
	{ requiredKeys: ['phoneNumberId', 'templateId', 'destination', 'mediaToUpload'] },
);

describe('the send inputs read without zod', () => {
	it('template variables: the plain reading equals the schema’s, for any values (property)', () => {
		let taken = 0;
		fc.assert(
			fc.property(anyVariables, (value) => {
				const plain = readTemplateVariablesPlainly(value);
				if (plain === undefined) return;
				taken += 1;
				const parsed = templateVariablesSchema.safeParse(value);
				expect(parsed.success).toBe(true);
				expect(definedOnly(plain)).toStrictEqual(definedOnly(parsed.success && parsed.data));
			}),
			{ numRuns: 3000 },
		);
		// A reader that always deferred to zod would pass the above and prove nothing. About 5% of
		// these values are usual enough to take; fewer than 1% would mean the reader took none.
		expect(taken).toBeGreaterThan(30);
	});

	it('a send request: the plain reading equals the schema’s, for any request (property)', () => {
		let taken = 0;
		fc.assert(
			fc.property(request, (value) => {
				const input = value as Parameters<typeof readSendTemplateInputPlainly>[0];
				const plain = readSendTemplateInputPlainly(input);
				if (plain === undefined) return;
				taken += 1;
				const parsed = sendTemplateInput.safeParse(input);
				expect(parsed.success).toBe(true);
				const { mediaToUpload: _, ...fields } = parsed.success ? parsed.data : { mediaToUpload: 0 };
				expect(definedOnly(plain)).toStrictEqual(definedOnly(fields));
			}),
			{ numRuns: 3000 },
		);
		expect(taken).toBeGreaterThan(30);
	});

	it('leaves to zod what it reads differently or refuses, which then names the field', () => {
		const usual = {
			phoneNumberId: '106540352242922',
			templateId: 'tmpl_01',
			destination: '+254712345678',
			mediaToUpload: false,
		};
		const unusual = [
			{ ...usual, destination: 'call me' },
			{ ...usual, variables: {}, componentList: '{"components":[]}' },
			{ ...usual, fileName: 'Menu.pdf' },
			{ ...usual, mediaId: 'a b' },
		];
		for (const value of unusual) expect(readSendTemplateInputPlainly(value)).toBeUndefined();
		expect(() => buildSendTemplateBody({ ...usual, destination: 'call me' })).toThrow(
			/destination.*not a valid phone number/,
		);
		const variablesOdd = [
			{ body: [{ placeholder: 1, value: 'a' }], footer: undefined },
			{
				body: [
					{ placeholder: 1, value: 'a' },
					{ placeholder: 1, value: 'b' },
				],
			},
			{ buttons: [{ kind: 'placeholder', index: 0, value: 'x' }] },
			Object.assign(Object.create(null), { body: [] }),
		];
		for (const value of variablesOdd) expect(readTemplateVariablesPlainly(value)).toBeUndefined();
		expect(() =>
			buildSendTemplateBody({
				...usual,
				variables: {
					body: [
						{ placeholder: 1, value: 'a' },
						{ placeholder: 1, value: 'b' },
					],
				},
			}),
		).toThrow(/variables\.body\[1\].*placeholder \{\{1\}\} is given twice/);
	});

	it('a usual send is checked without parsing either schema', () => {
		const requestParse = jest.spyOn(sendTemplateInput, 'safeParse');
		const variablesParse = jest.spyOn(templateVariablesSchema, 'safeParse');
		try {
			const body = buildSendTemplateBody({
				phoneNumberId: '106540352242922',
				templateId: 'tmpl_01',
				destination: '254 712 345 678',
				variables: {
					body: [
						{ placeholder: 2, value: 'A-17' },
						{ placeholder: 1, value: 'Amina' },
					],
					buttons: [{ kind: 'quickReply', index: 1, value: 'STOP' }],
				},
			});
			expect(body).toStrictEqual({
				destination: '254712345678',
				template_id: 'tmpl_01',
				phone_number_id: '106540352242922',
				component_list: {
					components: [
						{
							component_type: 'BODY',
							fields: [
								{ name: '1', value: 'Amina' },
								{ name: '2', value: 'A-17' },
							],
						},
						{ component_type: 'BUTTONS', fields: [{ name: 'quick_reply:1', value: 'STOP' }] },
					],
				},
			});
			expect(requestParse).not.toHaveBeenCalled();
			expect(variablesParse).not.toHaveBeenCalled();
		} finally {
			jest.restoreAllMocks();
		}
	});
});
