// Properties of the readers of answer fields (client/http/answer-values.ts), through the schemas the
// client parses answers with: a field takes only values of its kind; anything else becomes null with
// one short note naming the field, never a coerced value, never an exception, never the whole value.
import fc from 'fast-check';
import { balanceSchema, deliveryReportSchema } from '../../nodes/SmsLeopard/client/sms/sms';
import { senderNumberSchema } from '../../nodes/SmsLeopard/client/whatsapp/senders';
import { templateSchema } from '../../nodes/SmsLeopard/client/whatsapp/templates';
import { groupSchema } from '../../nodes/SmsLeopard/client/contacts/groups';
import { mediaRecordSchema } from '../../nodes/SmsLeopard/client/whatsapp/media';
import { junk } from './arbitraries';

const RUNS = 2000;
/** A note names the field, says what came, and stays short whatever came. */
const NOTE_MAX_CHARS = 200;

interface Read {
	value: unknown;
	notes: string[];
}

function readField(schema: { parse(raw: unknown): unknown }, field: string, raw: unknown): Read {
	const record = schema.parse({ balance: 1, status: 'x', [field]: raw }) as Record<string, unknown>;
	return { value: record[field], notes: (record.notes as string[] | undefined) ?? [] };
}

const number = (raw: unknown) => readField(balanceSchema, 'conversion_rate', raw);
const whole = (raw: unknown) => readField(groupSchema, 'total_contacts', raw);
const id = (raw: unknown) => readField(deliveryReportSchema, 'id', raw);
const text = (raw: unknown) => readField(deliveryReportSchema, 'reason', raw);
const time = (raw: unknown) => readField(deliveryReportSchema, 'time', raw);
const flag = (raw: unknown) => readField(groupSchema, 'is_private', raw);

/** Independent model of a "plain decimal number" as text: sign, digits, fraction, exponent. */
const decimalText: fc.Arbitrary<string> = fc
	.tuple(
		fc.constantFrom('', '+', '-'),
		fc.stringMatching(/^\d{1,12}$/),
		fc.option(fc.stringMatching(/^\d{0,6}$/), { nil: undefined }),
		fc.option(fc.integer({ min: -20, max: 20 }), { nil: undefined }),
		fc.constantFrom('', ' ', '\t'),
	)
	.map(
		([sign, digits, fraction, exponent, pad]) =>
			pad +
			sign +
			digits +
			(fraction === undefined ? '' : `.${fraction}`) +
			(exponent === undefined ? '' : `e${exponent}`) +
			pad,
	);

/** Values no number field may take, whatever JavaScript's Number() makes of them. */
const notANumber: fc.Arbitrary<unknown> = fc.oneof(
	fc.boolean(),
	fc.array(fc.integer(), { maxLength: 3 }),
	fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
	fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `0x${n.toString(16)}`),
	fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `0o${n.toString(8)}`),
	fc.integer({ min: 0, max: 2 ** 31 }).map((n) => `0b${n.toString(2)}`),
	fc.constantFrom('', ' ', '\t', '\n', 'Infinity', '-Infinity', 'NaN', '1e400', '-1e400'),
	fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN),
	fc.integer({ min: 1000, max: 999_999 }).map((n) => n.toLocaleString('en-US')),
	fc.string({ maxLength: 8 }).filter((s) => !/^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(s)),
);

function expectOdd(read: Read, field: string) {
	expect(read.value).toBeNull();
	expect(read.notes).toHaveLength(1);
	expect(read.notes[0]).toMatch(
		new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: the answer gave `),
	);
	expect(read.notes[0].length).toBeLessThanOrEqual(NOTE_MAX_CHARS);
}

describe('number fields (balance, cost, rates)', () => {
	it('take a finite JSON number or plain decimal text, as the number it writes', () => {
		fc.assert(
			fc.property(
				fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), decimalText),
				(raw) => {
					const expected = Number(typeof raw === 'string' ? raw.trim() : raw);
					fc.pre(Number.isFinite(expected));
					const read = number(raw);
					expect(read.notes).toEqual([]);
					expect(read.value).toBe(expected === 0 ? 0 : expected);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('refuse booleans, lists, objects, hex/octal/binary, blank, thousands separators, Infinity', () => {
		fc.assert(
			fc.property(notANumber, (raw) => expectOdd(number(raw), 'conversion_rate')),
			{ numRuns: RUNS },
		);
	});

	it('a megabyte of digits that is not a number is refused at once, with a short note', () => {
		const started = Date.now();
		const read = number('1'.repeat(1_000_000) + 'x');
		expect(Date.now() - started).toBeLessThan(1000);
		expectOdd(read, 'conversion_rate');
		expect(read.notes[0]).toMatch(/\(1000001 characters\), not a number$/);
	});

	it('the examples of the issue: true, [42] and "0x1F" are not 1, 42 and 31', () => {
		for (const raw of [true, [42], '0x1F']) {
			const balance = balanceSchema.parse({ balance: raw, currency: 'KES' });
			expect(balance.balance).toBeNull();
			expect(balance.notes).toEqual([expect.stringMatching(/^balance: the answer gave /)]);
		}
		expect(balanceSchema.parse({ balance: true }).notes).toEqual([
			'balance: the answer gave true, not a number',
		]);
		expect(balanceSchema.parse({ balance: [42] }).notes).toEqual([
			'balance: the answer gave a list of 1 item, not a number',
		]);
	});
});

describe('whole-number fields (record ids, counts)', () => {
	it('take safe integers, as numbers or digits; refuse fractions and integers past 2^53', () => {
		const fine = fc.oneof(
			fc.maxSafeInteger().map((n) => ({ raw: n as unknown, expected: n })),
			fc.maxSafeInteger().map((n) => ({ raw: ` ${n}` as unknown, expected: n })),
		);
		const odd = fc.oneof(
			fc.double({ noNaN: true }).filter((n) => !Number.isSafeInteger(n)),
			fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }).map((n) => String(n)),
			fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }).map((n) => Number(n)),
			fc.constantFrom('1.5', '-0.25', '1e-3'),
			notANumber,
		);
		fc.assert(
			fc.property(fine, ({ raw, expected }) => {
				expect(whole(raw)).toEqual({ value: expected === 0 ? 0 : expected, notes: [] });
			}),
			{ numRuns: RUNS },
		);
		fc.assert(
			fc.property(odd, (raw) => expectOdd(whole(raw), 'total_contacts')),
			{ numRuns: RUNS },
		);
	});
});

describe('id fields (message, template, media, phone_number_id)', () => {
	it('take non-blank text as given (not a word for "no value") and safe integers as their digits; nothing else', () => {
		const noValueWord = /^\s*(null|undefined|none|nil|nan)\s*$/i;
		const text = fc.oneof(
			fc.string({ maxLength: 20 }),
			fc.constantFrom('null', 'undefined', 'None', ' NaN ', 'nil', 'nullable', 'None1'),
		);
		fc.assert(
			fc.property(fc.oneof(text, fc.maxSafeInteger(), junk), (raw) => {
				const read = id(raw);
				if (typeof raw === 'string' && raw.trim() !== '' && !noValueWord.test(raw)) {
					expect(read).toEqual({ value: raw, notes: [] });
				} else if (typeof raw === 'number' && Number.isSafeInteger(raw)) {
					expect(read).toEqual({ value: String(raw), notes: [] });
				} else if (raw === undefined) {
					expect(read).toEqual({ value: undefined, notes: [] });
				} else {
					expectOdd(read, 'id');
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it('null is never the id "null", and a huge id is not echoed whole', () => {
		expect(id(null)).toEqual({ value: null, notes: ['id: the answer gave null, not an id'] });
		expect(id(false).value).toBeNull();
		expect(id({}).value).toBeNull();
		expect(id('').value).toBeNull();
		const huge = id('x'.repeat(100_000));
		expectOdd(huge, 'id');
	});
});

describe('time fields', () => {
	// Dates between 1974 and 5000: far from the seconds/milliseconds boundary on both sides.
	const instant = fc.integer({ min: 130_000_000, max: 95_000_000_000 });

	it('unix seconds, unix milliseconds and an ISO date of one instant give the same ISO date', () => {
		fc.assert(
			fc.property(instant, fc.boolean(), (seconds, asText) => {
				const expected = new Date(seconds * 1000).toISOString();
				const given = [seconds, seconds * 1000, expected, expected.replace('.000Z', '+00:00')];
				for (const raw of given) {
					const value = asText && typeof raw === 'number' ? String(raw) : raw;
					const read = time(value);
					expect(read.notes).toEqual([]);
					expect(read.value).toEqual({ iso: expected, given: value });
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it('the issue example: a report time in milliseconds is not the year 55840', () => {
		const read = time(1626390000000);
		expect(read.value).toEqual({ iso: '2021-07-15T23:00:00.000Z', given: 1626390000000 });
	});

	it('anything else is null with a note: microseconds, 0, negatives, impossible dates, junk', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.integer({ min: 100_000_000_000_001, max: Number.MAX_SAFE_INTEGER }),
					fc.integer({ min: -1e12, max: 0 }),
					fc.constantFrom(
						'2021-02-30',
						'2021-13-01',
						'2021-07-16T25:00:00Z',
						'yesterday',
						'16/07/2021',
						'',
					),
					notANumber.filter((raw) => typeof raw !== 'string' || raw.trim() !== ''),
				),
				(raw) => expectOdd(time(raw), 'time'),
			),
			{ numRuns: RUNS },
		);
	});
});

describe('text and flag fields', () => {
	it('a status or reason that is not text is null, never "[object Object]" or "200"', () => {
		fc.assert(
			fc.property(junk, (raw) => {
				const read = text(raw);
				if (typeof raw === 'string') expect(read).toEqual({ value: raw, notes: [] });
				else if (raw === null || raw === undefined) expect(read.notes).toEqual([]);
				else expectOdd(read, 'reason');
			}),
			{ numRuns: RUNS },
		);
		const report = deliveryReportSchema.parse({ id: 'a', status: { code: 1 } });
		expect(report.status).toBeNull();
		expect(report.notes).toEqual(['status: the answer gave an object, not text']);
	});

	it('a flag takes true or false only', () => {
		fc.assert(
			fc.property(junk, (raw) => {
				const read = flag(raw);
				if (typeof raw === 'boolean') expect(read).toEqual({ value: raw, notes: [] });
				else if (raw === null || raw === undefined) expect(read.notes).toEqual([]);
				else expectOdd(read, 'is_private');
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('records', () => {
	it('one odd field never throws the record away, and every odd field has its own note', () => {
		fc.assert(
			fc.property(
				fc.record({ id: junk, phone_number: junk, phone_number_id: junk, messaging_limit: junk }),
				(raw) => {
					const result = senderNumberSchema.safeParse(raw);
					expect(result.success).toBe(true);
					if (!result.success) return;
					for (const note of result.data.notes ?? []) {
						expect(note.length).toBeLessThanOrEqual(NOTE_MAX_CHARS);
					}
					const noted = (result.data.notes ?? []).map((note) => note.split(':')[0]);
					expect(new Set(noted).size).toBe(noted.length);
				},
			),
			{ numRuns: RUNS },
		);
	});

	it("a template's odd button fields are noted with their place", () => {
		const template = templateSchema.parse({
			id: 7,
			name: 'welcome',
			button: [{ type: 'URL', text: 'Open' }, { type: 5, text: ['x'] }, 'junk'],
		});
		expect(template.id).toBe('7');
		expect(template.button).toEqual([
			{ type: 'URL', text: 'Open' },
			{ type: null, text: null },
		]);
		expect(template.notes).toEqual([
			'button[1].type: the answer gave 5, not text',
			'button[1].text: the answer gave a list of 1 item, not text',
			'button[2]: the answer gave "junk", not a record',
		]);
	});

	it('a record keeps at most 20 notes and says how many more, however many fields were odd', () => {
		const template = templateSchema.parse({
			id: 'tpl',
			button: Array.from({ length: 100_000 }, () => ({ type: 1, text: 2 })),
		});
		expect(template.notes).toHaveLength(21);
		expect(template.notes?.[20]).toBe('and 199980 more odd values');
		expect(JSON.stringify(template.notes).length).toBeLessThan(2000);
		const sender = senderNumberSchema.parse(
			Object.fromEntries(['id', 'phone_number', 'phone_number_id'].map((key) => [key, {}])),
		);
		expect(sender.notes).toHaveLength(3);
	});

	it('a media record without a usable media_id is refused, naming the field', () => {
		fc.assert(
			fc.property(
				fc.oneof(
					fc.constant(undefined),
					fc.constant(null),
					fc.constant(''),
					fc.boolean(),
					fc.double({ noInteger: true }),
					fc.object(),
				),
				(mediaId) => {
					const result = mediaRecordSchema.safeParse({ id: 1, media_id: mediaId });
					expect(result.success).toBe(false);
					if (result.success) return;
					expect(result.error.issues[0].path).toEqual(['media_id']);
					expect(result.error.issues[0].message).toMatch(/not an id: the upload cannot be used/);
				},
			),
			{ numRuns: 300 },
		);
	});
});
