// Properties of values that come from expressions: a number field reads any value as a number
// within its bounds or refuses it with a reason (never NaN, never rounded or clamped), and a
// customized SMS never fills a placeholder from what JavaScript objects inherit or writes a
// number inexactly.
import fc from 'fast-check';
import { fillPlaceholders } from '../../nodes/SmsLeopard/actions/message/fill-placeholders';
import { readNumber } from '../../nodes/SmsLeopard/helpers/number-option';
import { edgeNumber, junk, nastyString, outcome } from './arbitraries';

const RUNS = 3000;

const rule = fc.record({
	min: fc.integer({ min: -2, max: 3 }),
	max: fc.option(fc.integer({ min: 3, max: 2000 }), { nil: undefined }),
	whole: fc.boolean(),
});

const anyValue = fc.oneof(
	edgeNumber,
	edgeNumber.map(String),
	nastyString,
	junk,
	fc.constantFrom('', ' ', '1e3', '0x1F', '12abc', ' 7 ', 'Infinity', '-0'),
);

describe('number fields from expressions', () => {
	it('give a finite number within the rule, or a reason naming what they got', () => {
		fc.assert(
			fc.property(anyValue, rule, (value, bounds) => {
				const reading = readNumber(value, 5, bounds);
				if (!reading.ok) {
					expect(reading.problem).toMatch(/^must be .* \(got .*\)$/s);
					return;
				}
				if (value === undefined || value === null) return expect(reading.value).toBe(5);
				expect(Number.isFinite(reading.value)).toBe(true);
				expect(reading.value).toBeGreaterThanOrEqual(bounds.min);
				if (bounds.max !== undefined) expect(reading.value).toBeLessThanOrEqual(bounds.max);
				if (bounds.whole) expect(Number.isInteger(reading.value)).toBe(true);
				// Never changed: the number given, or the number its text spells.
				expect(reading.value).toBe(typeof value === 'number' ? value : Number(value));
			}),
			{ numRuns: RUNS },
		);
	});
});

/** Names every JavaScript object has without owning them. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

describe('customized SMS placeholders', () => {
	it('never fill from inherited names, and never write a number inexactly', () => {
		const key = fc.oneof(fc.constantFrom(...INHERITED), fc.stringMatching(/^[A-Za-z_]\w{0,6}$/));
		fc.assert(
			fc.property(
				fc.array(key, { minLength: 1, maxLength: 3 }),
				fc.dictionary(
					fc.stringMatching(/^[a-z]{1,3}$/),
					fc.oneof(edgeNumber, fc.stringMatching(/^[a-z0-9 ]{0,8}$/)),
				),
				(path, json) => {
					const result = outcome(() => fillPlaceholders(`Hi {${path.join('.')}}!`, json));
					if (!result.ok) return;
					expect(result.value).not.toMatch(/function|native code|\[object|Infinity|NaN/);
					const filled = result.value.slice(3, -1);
					// Filled only from an own field of the item, and with exactly its text.
					const own = path.length === 1 && Object.prototype.hasOwnProperty.call(json, path[0]);
					expect(own).toBe(true);
					const value = json[path[0]];
					expect(filled).toBe(String(value));
					// The same number as the field's (-0 is written "0", as String writes it: the same number
					// to a reader, though Object.is, which toBe uses, tells the two apart).
					if (typeof value === 'number') expect(Number(filled) === value).toBe(true);
				},
			),
			{ numRuns: RUNS },
		);
	});
});
