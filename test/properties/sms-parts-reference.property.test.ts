// The node's SMS part counter against an independent reference written from 3GPP TS 23.038 /
// 23.040 (sms-reference-counter.ts), on 100,000 random texts built to hit what goes wrong: extension
// characters and emoji (two units each) right at part boundaries, lengths around 160/153/152 and
// 70/67/66 and their multiples, other non-GSM characters and lookalikes. Parts decide the price and
// what Max Parts per Message lets through, so there must be no mismatch at all.
import fc from 'fast-check';
import { prepareSendSms } from '../../nodes/SmsLeopard/client';
import { countSmsSegments } from '../../nodes/SmsLeopard/client/sms/sms-segments';
import { referenceSmsParts } from './sms-reference-counter';

const RUNS = 100_000;

const BASIC = [...'@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà\n\r'];
const EXTENSION = [...'^{}\\[~]|€\f'];
/** Outside the basic plane: two UTF-16 units each (a skin tone or a flag is two such characters). */
const EMOJI = ['😀', '👍', '🎉', '💯', '👍🏽', '🇰🇪', '𝄞', '𠀀'];
/** One unit each, not GSM-7; some look like GSM-7 characters (ç, Ω as the ohm sign, `, ’). */
const OTHER = ['’', '“', 'ç', 'ж', '中', 'á', 'ë', '\u00a0', '—', '\u2126', '`', '\u0301', 'ς'];
/** Halves of a surrogate pair on their own, as a cut string may carry them. */
const LONE = ['\ud83d', '\ude00'];

const POOLS: Array<{ weight: number; characters: string[] }> = [
	{ weight: 3, characters: ['a'] },
	{ weight: 2, characters: BASIC },
	{ weight: 4, characters: EXTENSION },
	{ weight: 2, characters: [...BASIC, ...EXTENSION] },
	{ weight: 4, characters: EMOJI },
	{ weight: 2, characters: OTHER },
	{ weight: 2, characters: ['a', 'ж', ...EMOJI] },
	{ weight: 1, characters: [...BASIC, ...EXTENSION, ...EMOJI, ...OTHER, ...LONE] },
];

// Kept local: under jest every read of the global Math goes through the test context's global
// object, which made building the texts 15 times slower than the counting.
const { imul, floor } = Math;

/** A small seeded generator (mulberry32), so a long run of characters costs no fast-check draws. */
function random(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const pool = fc.oneof(
	...POOLS.map(({ weight, characters }) => ({ weight, arbitrary: fc.constant(characters) })),
);

/** Counts that put the next character on a boundary: k × 66/67/70/152/153/160, give or take 3. */
const nearBoundary = fc
	.tuple(
		fc.constantFrom(66, 67, 70, 152, 153, 160),
		fc.integer({ min: 1, max: 4 }),
		fc.integer({ min: -3, max: 3 }),
	)
	.map(([boundary, times, offset]) => Math.max(0, boundary * times + offset));

const run = fc.record({
	characters: pool,
	count: fc.oneof({ weight: 2, arbitrary: nearBoundary }, { weight: 3, arbitrary: fc.nat(6) }),
	seed: fc.integer(),
});

/** A few runs of characters: mostly a long filler, then what lands on the boundary after it. */
const builtText = fc.array(run, { minLength: 1, maxLength: 4 }).map((runs) =>
	runs
		.map(({ characters, count, seed }) => {
			const next = random(seed);
			let text = '';
			for (let i = 0; i < count; i++) text += characters[floor(next() * characters.length)];
			return text;
		})
		.join(''),
);

const text = fc.oneof(
	{ weight: 9, arbitrary: builtText },
	{ weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
);

describe('SMS parts: the node against a reference counter written from the standard', () => {
	it(`agrees on encoding, length and parts for ${RUNS.toLocaleString('en')} random texts`, () => {
		let checked = 0;
		fc.assert(
			// Plain comparisons, not expect(): jest's matchers would take most of the time here.
			fc.property(text, (sample) => {
				const node = countSmsSegments(sample);
				const reference = referenceSmsParts(sample);
				checked++;
				return (
					node.encoding === reference.encoding &&
					node.length === reference.length &&
					node.parts === reference.parts
				);
			}),
			{ numRuns: RUNS },
		);
		expect(checked).toBeGreaterThanOrEqual(RUNS);
	});

	it.each(
		[
			['152 × "a" + "€" + 152 × "a"', `${'a'.repeat(152)}€${'a'.repeat(152)}`, 'GSM-7', 306, 3],
			['153 × "a" + "€" + 151 × "a"', `${'a'.repeat(153)}€${'a'.repeat(151)}`, 'GSM-7', 306, 2],
			['"€" × 153', '€'.repeat(153), 'GSM-7', 306, 3],
			['67 emoji', '😀'.repeat(67), 'UCS-2', 134, 3],
			['36 emoji', '😀'.repeat(36), 'UCS-2', 72, 2],
			['35 emoji', '😀'.repeat(35), 'UCS-2', 70, 1],
			['"ж" × 66 + emoji + "ж" × 66', `${'ж'.repeat(66)}😀${'ж'.repeat(66)}`, 'UCS-2', 134, 3],
		].map(([name, sample, encoding, length, parts]) => ({ name, sample, encoding, length, parts })),
	)('$name is $encoding, $length units, $parts parts', ({ sample, encoding, length, parts }) => {
		expect(referenceSmsParts(sample as string)).toEqual({ encoding, length, parts });
		expect(countSmsSegments(sample as string)).toMatchObject({ encoding, length, parts });
	});

	it('Max Parts per Message refuses by the same count: a text of n parts passes at n, not at n - 1', () => {
		fc.assert(
			fc.property(builtText, (sample) => {
				const { parts } = referenceSmsParts(sample);
				fc.pre(parts >= 1 && sample.trim() !== '');
				const send = (maxParts: number) => () =>
					prepareSendSms({
						source: 'SMS_Leopard',
						message: sample,
						recipients: [{ number: '+254700000001' }],
						maxParts,
					});
				expect(send(parts)).not.toThrow();
				if (parts > 1) expect(send(parts - 1)).toThrow(`would be sent in ${parts} parts`);
			}),
			{ numRuns: 2000 },
		);
	});
});
