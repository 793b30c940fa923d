/**
 * The opt-out and opt-in words: each word of the lists however a customer types it (case,
 * punctuation, spaces, emoji), generated, and the replies that must not count.
 */
import fc from 'fast-check';
import {
	OPT_IN_WORDS,
	OPT_OUT_WORDS,
	optOutWordForm,
	optOutWordOf,
} from '../../nodes/SmsLeopard/client';

/** The word as someone might type it: case per letter, inner spaces doubled or dashed, around it. */
const typed = (word: string) =>
	fc
		.record({
			cases: fc.array(fc.boolean(), { minLength: word.length, maxLength: word.length }),
			inner: fc.constantFrom(' ', '  ', '-', '_', ' - '),
			before: fc.constantFrom('', ' ', '  ', '\n', '"', '*'),
			after: fc.constantFrom('', '.', '!!', '!', ' ', '?', ' 🛑', '."', '\n'),
		})
		.map(({ cases, inner, before, after }) => {
			const letters = [...word]
				.map((letter, index) => (cases[index] ? letter.toLowerCase() : letter))
				.join('');
			return before + letters.replace(/ /g, inner) + after;
		});

describe('optOutWordOf: the words that opt a number out or back in', () => {
	it.each(OPT_OUT_WORDS.map((word) => [word]))('%s opts out, however typed', (word) => {
		fc.assert(
			fc.property(typed(word), (text) => {
				expect(optOutWordOf(text)).toBe('opt out');
				expect(optOutWordForm(text)).toBe(word);
			}),
			{ numRuns: 200 },
		);
	});

	it.each(OPT_IN_WORDS.map((word) => [word]))('%s opts back in, however typed', (word) => {
		fc.assert(
			fc.property(typed(word), (text) => {
				expect(optOutWordOf(text)).toBe('opt in');
			}),
			{ numRuns: 200 },
		);
	});

	it.each([
		['Stop.', 'opt out'],
		['STOP!!', 'opt out'],
		['  stop  ', 'opt out'],
		['stop promo', 'opt out'],
		['Stop   Promo!', 'opt out'],
		['opt-out', 'opt out'],
		['OptOut', 'opt out'],
		['acha', 'opt out'],
		['Sitisha.', 'opt out'],
		['Start', 'opt in'],
		['anza!', 'opt in'],
	])('%j is %s', (text, choice) => {
		expect(optOutWordOf(text)).toBe(choice);
	});

	it.each([
		['a sentence with the word in it', 'please stop by the shop'],
		['a word that starts like one', 'STOPPED'],
		['a word inside another', 'BACKEND'],
		['two words run together', 'STOPSTART'],
		['an empty reply', ''],
		['punctuation only', '!!!'],
		['a question', 'Where do I start?'],
		['a number', 42],
		['null', null],
	])('%s is neither', (_, text) => {
		expect(optOutWordOf(text)).toBeUndefined();
	});

	it('no word is on both lists, and each is already in its compared form', () => {
		for (const word of [...OPT_OUT_WORDS, ...OPT_IN_WORDS]) expect(optOutWordForm(word)).toBe(word);
		expect(OPT_OUT_WORDS.filter((word) => OPT_IN_WORDS.includes(word))).toEqual([]);
	});
});
