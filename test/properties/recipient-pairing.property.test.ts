// Pairing of send-answer entries to the asked recipients: an item gets a message id only from its
// own entry. The model is a gateway that resolves each asked number (local numbers in its own
// country, which the client assumes is Kenya and may be wrong), gives each recipient a message id,
// and then answers in
// any of the ways real gateways do: reordered, entries missing or listed twice, numbers respelled
// or null, ids null, strangers' entries added. Whatever it answers, no item may get another item's
// id; and an answer that lists every distinct recipient once, in any order, pairs them all.
import fc from 'fast-check';
import {
	LOCAL_COUNTRY_CODE,
	type RecipientEntry,
	internationalDigits,
	pairRecipients,
	readRecipientEntry,
} from '../../nodes/SmsLeopard/client';
import {
	type NumberForms,
	entryLookup,
	formsOf,
} from '../../nodes/SmsLeopard/client/http/recipient-pairing';

/**
 * The definition entryLookup finds by index, written as a comparison of two readings: the same
 * reading, or a local number after an international one's country code of 1 to 3 digits.
 */
function couldBeSameNumber(asked: NumberForms, answered: NumberForms): boolean {
	if (asked.national === undefined && answered.national === undefined) {
		return asked.international !== undefined && asked.international === answered.international;
	}
	if (asked.national !== undefined && answered.national !== undefined) {
		return asked.national === answered.national;
	}
	const national = (asked.national ?? answered.national) as string;
	const full = asked.national === undefined ? asked.international : answered.international;
	const codeLength = (full?.length ?? 0) - national.length;
	return full !== undefined && codeLength >= 1 && codeLength <= 3 && full.endsWith(national);
}

const RUNS = Number(process.env.PAIR_RUNS ?? 4000);
/** Few countries and national numbers, so that suffixes and whole numbers collide often. */
const COUNTRIES = ['254', '256', '255', '1', '44'];
const NATIONALS = ['712345678', '712345679', '700000001'];

interface Asked {
	spelling: string;
	/** The international digits the gateway resolves it to. */
	resolved: string;
}

const askedRecipient = (gatewayCountry: string) =>
	fc
		.record({
			country: fc.constantFrom(...COUNTRIES),
			national: fc.constantFrom(...NATIONALS),
			form: fc.constantFrom('plus', 'digits', 'local', 'doubleZero'),
		})
		.map(({ country, national, form }): Asked => {
			if (form === 'local')
				return { spelling: `0${national}`, resolved: gatewayCountry + national };
			const spelling =
				form === 'plus'
					? `+${country}${national}`
					: form === 'digits'
						? `${country}${national}`
						: `00${country}${national}`;
			return { spelling, resolved: country + national };
		});

type Change =
	| { kind: 'drop'; at: number }
	| { kind: 'duplicate'; at: number }
	| { kind: 'nullNumber'; at: number }
	| { kind: 'nullId'; at: number }
	| { kind: 'respell'; at: number; form: 'digits' | 'local' | 'number' }
	| { kind: 'stranger'; number: string };

const change = fc.oneof(
	fc.record({ kind: fc.constant('drop' as const), at: fc.nat(20) }),
	fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(20) }),
	fc.record({ kind: fc.constant('nullNumber' as const), at: fc.nat(20) }),
	fc.record({ kind: fc.constant('nullId' as const), at: fc.nat(20) }),
	fc.record({
		kind: fc.constant('respell' as const),
		at: fc.nat(20),
		form: fc.constantFrom('digits' as const, 'local' as const, 'number' as const),
	}),
	fc.record({
		kind: fc.constant('stranger' as const),
		number: fc
			.tuple(fc.constantFrom(...COUNTRIES), fc.constantFrom(...NATIONALS))
			.map(([c, n]) => `+${c}${n}`),
	}),
);

const scenario = fc.constantFrom(...COUNTRIES).chain((gatewayCountry) =>
	fc.record({
		gatewayCountry: fc.constant(gatewayCountry),
		asked: fc.array(askedRecipient(gatewayCountry), { minLength: 1, maxLength: 8 }),
		changes: fc.array(change, { maxLength: 6 }),
		order: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
	}),
);

/** The gateway's honest answer, then bent by the changes. */
function answer(
	asked: Asked[],
	gatewayCountry: string,
	changes: Change[],
	order: number[],
): unknown[] {
	let entries: Array<Record<string, unknown>> = asked.map((recipient, index) => ({
		id: `m-${index}`,
		number: `+${recipient.resolved}`,
		status: 'queued',
		cost: 0.9,
	}));
	entries = entries
		.map((entry, index) => ({ entry, key: order[index % order.length] }))
		.sort((a, b) => a.key - b.key)
		.map(({ entry }) => entry);
	let strangers = 0;
	for (const step of changes) {
		if (step.kind === 'stranger') {
			// A stranger is an entry for a number nobody asked: not a recipient's number as the gateway
			// resolved it, nor as the client reads it (a gateway listing another message under a
			// recipient's very number, with the recipient's own entry unnamed, cannot be told apart).
			const taken = asked.flatMap((r) => [r.resolved, internationalDigits(r.spelling)]);
			if (taken.includes(step.number.slice(1))) continue;
			entries.push({ id: `stranger-${strangers++}`, number: step.number, status: 'queued' });
			continue;
		}
		if (entries.length === 0) continue;
		const at = step.at % entries.length;
		const entry = entries[at];
		if (step.kind === 'drop') entries.splice(at, 1);
		else if (step.kind === 'duplicate') entries.push({ ...entry });
		else if (step.kind === 'nullId') entries[at] = { ...entry, id: null };
		// A stranger's entry always names its number: a lone one without could only be read as ours.
		else if (step.kind === 'nullNumber' && !String(entry.id).startsWith('stranger'))
			entries[at] = { ...entry, number: null };
		else if (step.kind === 'respell') {
			const digits = String(entry.number ?? '').replace(/\D/g, '');
			const respelled =
				step.form === 'digits'
					? digits
					: step.form === 'number'
						? Number(digits)
						: digits.startsWith(gatewayCountry)
							? `0${digits.slice(gatewayCountry.length)}`
							: entry.number;
			entries[at] = { ...entry, number: respelled };
		}
	}
	return entries;
}

const idsOf = (paired: Array<RecipientEntry | undefined>) => paired.map((entry) => entry?.id);

describe('pairing send-answer entries to asked recipients', () => {
	it("never gives an item another item's message id, whatever the answer", () => {
		fc.assert(
			fc.property(scenario, ({ gatewayCountry, asked, changes, order }) => {
				const entries = answer(asked, gatewayCountry, changes, order).map(readRecipientEntry);
				const paired = pairRecipients(
					asked.map((recipient) => recipient.spelling),
					entries,
				);
				paired.forEach((entry, index) => {
					if (entry?.id !== undefined) expect(entry.id).toBe(`m-${index}`);
				});
			}),
			{ numRuns: RUNS },
		);
	});

	it('pairs every recipient of an answer that lists each distinct recipient once, in any order', () => {
		fc.assert(
			fc.property(scenario, ({ gatewayCountry, asked, order }) => {
				// Recipients are told apart when no two share a national number (a local number could
				// be in any country), and a local number is known only in the country the client
				// assumes.
				const nationals = asked.map((recipient) => recipient.resolved.slice(-9));
				fc.pre(new Set(nationals).size === asked.length);
				fc.pre(gatewayCountry === LOCAL_COUNTRY_CODE || asked.every((r) => r.spelling[0] !== '0'));
				const entries = answer(asked, gatewayCountry, [], order).map(readRecipientEntry);
				const paired = pairRecipients(
					asked.map((recipient) => recipient.spelling),
					entries,
				);
				expect(idsOf(paired)).toEqual(asked.map((_, index) => `m-${index}`));
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('the cases seen from outside', () => {
	const entry = (id: unknown, number: unknown) =>
		readRecipientEntry({ id, number, status: 'queued', cost: 0.9 });

	it('does not hand 0712345678 the id of +256712345678, in either order', () => {
		// For an account outside Kenya the local number could be +256712345678 too: neither entry is
		// provably one item's, so both items are maybe sent.
		const asked = ['0712345678', '+256712345678'];
		const ug = entry('ug', '+256712345678');
		const ke = entry('ke', '+254712345678');
		expect(idsOf(pairRecipients(asked, [ug]))).toEqual([undefined, undefined]);
		expect(idsOf(pairRecipients(asked, [ug, ke]))).toEqual([undefined, undefined]);
		expect(idsOf(pairRecipients(asked, [ke, ug]))).toEqual([undefined, undefined]);
		// Numbers that share no national part pair whatever the order.
		expect(
			idsOf(pairRecipients(['0712345678', '+256700000001'], [entry('u', '+256700000001'), ke])),
		).toEqual(['ke', 'u']);
		// The same recipient asked twice: either entry could be either item's.
		expect(
			idsOf(
				pairRecipients(
					['0712345678', '+254712345678'],
					[entry('x', '+254712345678'), entry('y', '+254712345678')],
				),
			),
		).toEqual([undefined, undefined]);
	});

	it('pairs distinct numbers whatever their spelling and order', () => {
		const asked = ['0712345678', '+254700000002', '254711111111'];
		const entries = [
			entry('b', '+254700000002'),
			entry('c', 254711111111),
			entry('a', '+254712345678'),
		];
		expect(idsOf(pairRecipients(asked, entries))).toEqual(['a', 'b', 'c']);
	});

	it('leaves unpaired whatever the answer lacks, lists twice or gives without a number or id', () => {
		const asked = ['+254700000001', '+254700000002', '+254700000003', '+254700000004'];
		const entries = [
			entry('one', '+254700000001'),
			entry('one', '+254700000001'),
			entry('three', null),
			entry(null, '+254700000004'),
		];
		const paired = pairRecipients(asked, entries);
		expect(idsOf(paired)).toEqual([undefined, undefined, undefined, undefined]);
	});

	it('pairs a lone recipient with a lone entry that names no number', () => {
		expect(idsOf(pairRecipients(['+254700000001'], [entry('x', null)]))).toEqual(['x']);
		expect(idsOf(pairRecipients(['+254700000001'], [entry('x', '+254700000009')]))).toEqual([
			undefined,
		]);
	});

	it('finds by index exactly the entries a comparison with every entry finds (property)', () => {
		const spelling = fc
			.tuple(
				fc.constantFrom('+', '', '00', '0', ' +', '('),
				fc.constantFrom('', ...COUNTRIES, '2547'),
				fc.constantFrom(...NATIONALS, '7123', '12345678', '0712345678', ''),
			)
			.map(([prefix, country, national]) => `${prefix}${country}${national}`);
		let found = 0;
		fc.assert(
			fc.property(
				// Entries spelled at random, or an asked national number after some country code.
				fc.array(spelling, { minLength: 1, maxLength: 6 }).chain((asked) =>
					fc.tuple(
						fc.constant(asked),
						fc.array(
							fc.option(
								fc.oneof(
									spelling,
									fc
										.tuple(fc.constantFrom(...asked), fc.constantFrom('+254', '+1', '0', '+2547'))
										.map(([number, code]) => code + number.replace(/^\D*0?/, '')),
								),
								{ nil: undefined },
							),
							{ maxLength: 8 },
						),
					),
				),
				([asked, answered]) => {
					const entryForms = answered.map((number) =>
						number === undefined ? undefined : formsOf(number),
					);
					const lookup = entryLookup(entryForms);
					for (const number of asked) {
						const forms = formsOf(number);
						const compared = entryForms.flatMap((entryForm, at) =>
							entryForm !== undefined && couldBeSameNumber(forms, entryForm) ? [at] : [],
						);
						expect({ number, found: lookup(forms) }).toEqual({ number, found: compared });
						found += compared.length;
					}
				},
			),
			{ numRuns: RUNS },
		);
		// Many asked numbers had entries to find, not only none.
		expect(found).toBeGreaterThan(RUNS / 4);
	});

	it('reads an id of null, true, an object or "" as no id, and a safe integer as its digits', () => {
		const odd = [null, true, {}, '', '  ', 1.5, 1e21, 'null', 'undefined', 'None', ' NaN '];
		expect(odd.map((id) => entry(id, '+1').id)).toEqual(new Array(odd.length).fill(undefined));
		expect(entry(42, '+1').id).toBe('42');
	});

	it('reads an odd cost or status as null with a note, and a number given as digits', () => {
		const odd = readRecipientEntry({ id: 'x', number: 254700000001, status: {}, cost: '0x1F' });
		expect(odd).toEqual({
			id: 'x',
			number: '254700000001',
			status: null,
			cost: null,
			notes: [
				'status: the answer gave an object, not text',
				'cost: the answer gave "0x1F", not a number',
			],
		});
		expect(readRecipientEntry('gone')).toEqual({
			status: null,
			notes: ['recipient: the answer gave "gone", not a record'],
		});
	});
});
