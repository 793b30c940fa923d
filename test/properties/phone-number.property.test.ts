// Properties of destination and contact phone numbers: any input is accepted as digits with an
// optional leading '+' (6 to 15 digits once separators are removed) or refused with the field named.
import fc from 'fast-check';
import { buildSendTemplateBody } from '../../nodes/SmsLeopard/client';
import { buildCreateContactBody } from '../../nodes/SmsLeopard/client/contacts/contacts';
import { junk, nastyString, outcome } from './arbitraries';

const RUNS = 3000;
const ACCEPTED = /^\+?\d{6,15}$/;

/** The reference model: trim, drop the separators people paste, then the shape must hold. */
function model(input: string): string | undefined {
	const cleaned = input.trim().replace(/[\s\-.()]/g, '');
	return input.trim() !== '' && ACCEPTED.test(cleaned) ? cleaned : undefined;
}

const sendWith = (destination: unknown) =>
	outcome(() =>
		buildSendTemplateBody({
			phoneNumberId: '110000000000001',
			templateId: 'tpl_order_update',
			destination: destination as string,
		}),
	);

/** Phone-like text: digits, a plus, separators, line breaks and a few letters, in any order. */
const phoneAlphabet = fc.constantFrom(
	...'0123456789'.split(''),
	'+',
	'+',
	' ',
	'-',
	'.',
	'(',
	')',
	'\t',
	'\r',
	'\n',
	'\u00a0',
	'\u2028',
	'x',
	'#',
	'/',
	'\u0660', // ARABIC-INDIC DIGIT ZERO: a digit, but not an ASCII one
	'\uff11', // FULLWIDTH DIGIT ONE
);
const phoneish: fc.Arbitrary<string> = fc.oneof(
	fc.string({ unit: phoneAlphabet, maxLength: 22 }),
	fc.stringMatching(/^\+?\d{4,17}$/),
	fc
		.tuple(
			fc.constantFrom('', '+', '00', ' +'),
			fc.array(fc.stringMatching(/^\d{1,4}$/), { maxLength: 6 }),
		)
		.chain(([prefix, groups]) =>
			fc
				.constantFrom(' ', '-', '.', '', ') (', '\r\n')
				.map((separator) => prefix + groups.join(separator)),
		),
	nastyString,
	fc.string({ unit: 'binary', maxLength: 25 }),
);

describe('destination of a send', () => {
	it('is accepted exactly when the model accepts it, as the cleaned digits, else refused by name', () => {
		fc.assert(
			fc.property(phoneish, (input) => {
				const expected = model(input);
				const result = sendWith(input);
				if (expected === undefined) {
					expect(result.ok).toBe(false);
					if (!result.ok) {
						expect(result.error.issues.map((issue) => issue.field)).toEqual(['destination']);
						expect(result.error.message).toMatch(/^destination: /);
					}
					return;
				}
				expect(result.ok).toBe(true);
				if (result.ok) {
					expect(result.value.destination).toBe(expected);
					expect(result.value.destination).toMatch(ACCEPTED);
				}
			}),
			{ numRuns: RUNS },
		);
	});

	it('is refused, never a TypeError, when it is not text', () => {
		fc.assert(
			fc.property(
				junk.filter((value) => typeof value !== 'string'),
				(input) => {
					const result = sendWith(input);
					expect(result.ok).toBe(false);
					if (!result.ok) {
						expect(result.error.issues.map((issue) => issue.field)).toContain('destination');
					}
				},
			),
			{ numRuns: RUNS },
		);
	});

	it('accepted values hold only digits and one optional leading plus, 6 to 15 digits', () => {
		fc.assert(
			fc.property(phoneish, (input) => {
				const result = sendWith(input);
				if (!result.ok) return;
				const { destination } = result.value;
				expect(destination).toMatch(/^\+?[0-9]+$/);
				const digits = destination.replace(/^\+/, '').length;
				expect(digits).toBeGreaterThanOrEqual(6);
				expect(digits).toBeLessThanOrEqual(15);
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('phone number of a contact', () => {
	it('follows the same model, refused by the name phoneNumber', () => {
		fc.assert(
			fc.property(phoneish, (input) => {
				const expected = model(input);
				const result = outcome(() => buildCreateContactBody({ phoneNumber: input }));
				if (expected === undefined) {
					expect(result.ok).toBe(false);
					if (!result.ok) {
						expect(result.error.issues.map((issue) => issue.field)).toEqual(['phoneNumber']);
					}
				} else {
					expect(result.ok && result.value.phone_number).toBe(expected);
				}
			}),
			{ numRuns: RUNS },
		);
	});
});
