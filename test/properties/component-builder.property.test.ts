// Properties of the component builder: whatever comes in, a component_list or a validation error
// comes out, and what comes out is canonical (docs/api.md "Template send rules", rule 4).
import fc from 'fast-check';
import {
	type ComponentList,
	buildComponentList,
	canonicalButtonName,
	normalizeComponentList,
	parseButtonName,
} from '../../nodes/SmsLeopard/client';
import { CRLF, edgeNumber, junk, nastyString, outcome } from './arbitraries';

const RUNS = 3000;

const PLACEHOLDER_NAME = /^[1-9]\d*$/;
const CANONICAL_BUTTON = /^(?:[1-9]\d*|(?:button|url|quick_reply):(?:0|[1-9]\d*))$/;
const TYPE_ORDER = ['HEADER', 'BODY', 'BUTTONS'];

/** What is wrong with an accepted component_list (nothing, one hopes). Plain checks: fast. */
function canonicalProblems(list: ComponentList): string[] {
	const problems: string[] = [];
	if (!Array.isArray(list.components)) return ['components is not an array'];
	const types = list.components.map((c) => c.component_type);
	if (new Set(types).size !== types.length) problems.push(`repeated type in ${types.join(',')}`);
	for (const component of list.components) {
		const type = component.component_type;
		if (!TYPE_ORDER.includes(type)) problems.push(`type ${JSON.stringify(type)}`);
		const names = component.fields.map((f) => f.name);
		if (new Set(names).size !== names.length) problems.push(`repeated name in ${type}`);
		for (const { name, value } of component.fields) {
			if (typeof name !== 'string' || typeof value !== 'string') {
				problems.push(`non-text field ${JSON.stringify({ name, value })}`);
				continue;
			}
			if (CRLF.test(name)) problems.push(`line break in name ${JSON.stringify(name)}`);
			const canonical =
				type === 'BUTTONS'
					? CANONICAL_BUTTON.test(name) && canonicalButtonName(name) === name
					: PLACEHOLDER_NAME.test(name);
			if (!canonical) problems.push(`${type} name ${JSON.stringify(name)} is not canonical`);
		}
	}
	return problems;
}

function expectCanonical(list: ComponentList): void {
	expect(canonicalProblems(list)).toEqual([]);
}

// ---------------------------------------------------------------- generators

const numberish: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 4, arbitrary: fc.integer({ min: 0, max: 12 }) },
	{ weight: 3, arbitrary: edgeNumber },
	{ weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
	{ weight: 1, arbitrary: junk },
);
const valueish: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 5, arbitrary: nastyString },
	{ weight: 1, arbitrary: edgeNumber },
	{ weight: 1, arbitrary: junk },
);

const placeholderValue = fc.record(
	{ placeholder: numberish, value: valueish, extra: junk },
	{ requiredKeys: ['placeholder', 'value'] },
);
const buttonValue = fc.record(
	{
		kind: fc.oneof(
			{ weight: 6, arbitrary: fc.constantFrom('url', 'quickReply', 'button', 'placeholder') },
			{ weight: 1, arbitrary: junk },
		),
		index: numberish,
		placeholder: numberish,
		value: valueish,
	},
	{ requiredKeys: [] },
);
const listOr = <T>(item: fc.Arbitrary<T>) =>
	fc.oneof(
		{ weight: 5, arbitrary: fc.array(item, { maxLength: 4 }) },
		{ weight: 1, arbitrary: junk },
	);

const messyVariables = fc.record(
	{
		header: listOr(placeholderValue),
		body: listOr(placeholderValue),
		buttons: listOr(buttonValue),
		stray: junk,
	},
	{ requiredKeys: [] },
);

/** Mostly valid variables, so that the accepting path is exercised as much as the refusing one. */
const visibleText = fc
	.oneof(nastyString, fc.string({ maxLength: 12 }))
	.filter((t) => t.trim() !== '');
const mostly = <T>(good: fc.Arbitrary<T>, odd: fc.Arbitrary<T>) =>
	fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: odd });
const goodPlaceholders = fc.uniqueArray(
	fc.record({
		placeholder: mostly(fc.integer({ min: 1, max: 20 }), edgeNumber),
		value: visibleText,
	}),
	{ maxLength: 4, selector: (item) => item.placeholder },
);
const goodButtons = fc.uniqueArray(
	fc.oneof(
		fc.record({
			kind: fc.constantFrom('url', 'quickReply', 'button'),
			index: mostly(fc.nat(9), edgeNumber),
			value: visibleText,
		}),
		fc.record({
			kind: fc.constant('placeholder'),
			placeholder: mostly(fc.integer({ min: 1, max: 9 }), edgeNumber),
			value: visibleText,
		}),
	),
	{
		maxLength: 4,
		selector: (b) => ('index' in b ? `i${String(b.index)}` : `p${String(b.placeholder)}`),
	},
);
const goodVariables = fc.record(
	{ header: goodPlaceholders, body: goodPlaceholders, buttons: goodButtons },
	{ requiredKeys: [] },
);

const variables: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 1, arbitrary: junk },
	{ weight: 3, arbitrary: messyVariables },
	{ weight: 6, arbitrary: goodVariables },
);

/** Every accepted spelling of rule 4, case mixed, with its canonical form. */
const indexTargetedVariant = fc
	.record({
		type: fc.constantFrom('button', 'url', 'quick_reply', 'quick-reply'),
		separator: fc.constantFrom(':', '_', '-'),
		index: fc.oneof(fc.nat(20), fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)),
		zeros: fc.nat(3),
		padding: fc.tuple(fc.constantFrom('', ' ', '\t', '  '), fc.constantFrom('', ' ', '\t')),
	})
	.chain((v) =>
		fc.mixedCase(fc.constant(v.type)).map((cased) => ({
			name: `${v.padding[0]}${cased}${v.separator}${'0'.repeat(v.zeros)}${v.index}${v.padding[1]}`,
			canonical: `${v.type.replace('-', '_')}:${v.index}`,
		})),
	);

const buttonNameLike: fc.Arbitrary<string> = fc.oneof(
	indexTargetedVariant.map((v) => v.name),
	fc.nat().map(String),
	fc.mixedCase(fc.stringMatching(/^\s?(button|url|quick[_-]?reply|btn)?[:_\- ]{0,2}\d{0,25}\s?$/)),
	fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
	nastyString,
);

const fieldName: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 6, arbitrary: buttonNameLike },
	{ weight: 2, arbitrary: edgeNumber },
	{ weight: 1, arbitrary: junk },
);
const rawField = fc.record(
	{ name: fieldName, value: valueish, more: junk },
	{ requiredKeys: ['name', 'value'] },
);
const componentType = fc.oneof(
	fc.constantFrom('HEADER', 'BODY', 'BUTTONS', ' body ', 'Buttons', 'header\n', 'FOOTER', ''),
	junk,
);
const rawComponent = fc.record(
	{ component_type: componentType, fields: listOr(rawField) },
	{ requiredKeys: [] },
);
/** Mostly valid component lists: one component per type, names unique in canonical form. */
const goodFields = (names: fc.Arbitrary<unknown>) =>
	fc.uniqueArray(fc.record({ name: names, value: fc.oneof(visibleText, fc.integer()) }), {
		maxLength: 4,
		selector: (field) => {
			const text = String(field.name).trim();
			return canonicalButtonName(text) ?? text;
		},
	});
const goodComponent = fc.oneof(
	fc.record({
		component_type: fc.constantFrom('HEADER', 'BODY', 'body', ' Header '),
		fields: goodFields(
			mostly<unknown>(
				fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }).map(String)),
				buttonNameLike,
			),
		),
	}),
	fc.record({
		component_type: fc.constantFrom('BUTTONS', 'buttons'),
		fields: goodFields(
			mostly<unknown>(
				fc.oneof(
					indexTargetedVariant.map((v) => v.name),
					fc.integer({ min: 1, max: 9 }),
				),
				buttonNameLike,
			),
		),
	}),
);
const goodList = fc
	.uniqueArray(goodComponent, {
		maxLength: 3,
		selector: (c) => c.component_type.trim().toUpperCase(),
	})
	.map((components) => ({ components }));

const rawList: fc.Arbitrary<unknown> = fc.oneof(
	{ weight: 1, arbitrary: junk },
	{ weight: 1, arbitrary: fc.array(rawComponent, { maxLength: 4 }) },
	{
		weight: 3,
		arbitrary: fc.record(
			{ components: listOr(rawComponent), other: junk },
			{ requiredKeys: ['components'] },
		),
	},
	{ weight: 5, arbitrary: goodList },
	{ weight: 1, arbitrary: goodList.map((list) => list.components) },
);

/** Lists that JSON can carry unchanged (integers and strings only). */
const jsonSafeList = fc.record({
	components: fc.array(
		fc.record({
			component_type: fc.constantFrom('HEADER', 'BODY', 'BUTTONS', 'body'),
			fields: fc.array(
				fc.record({
					name: fc.oneof(buttonNameLike, fc.nat(30)),
					value: fc.oneof(nastyString, fc.integer()),
				}),
				{ maxLength: 4 },
			),
		}),
		{ maxLength: 3 },
	),
});

// ---------------------------------------------------------------- properties

describe('buildComponentList', () => {
	it('returns a canonical component_list or throws a validation error, for any input', () => {
		fc.assert(
			fc.property(variables, (input) => {
				const result = outcome(() => buildComponentList(input as never));
				if (result.ok) expectCanonical(result.value);
				else expect(result.error.issues.length).toBeGreaterThan(0);
			}),
			{ numRuns: RUNS },
		);
	});

	it('builds what the normalizer accepts unchanged (values with visible text)', () => {
		fc.assert(
			fc.property(variables, (input) => {
				const built = outcome(() => buildComponentList(input as never));
				if (!built.ok) return;
				const blank = built.value.components.some((c) => c.fields.some((f) => !f.value.trim()));
				fc.pre(!blank);
				expect(normalizeComponentList(built.value)).toEqual(built.value);
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('normalizeComponentList', () => {
	it('returns a canonical component_list or throws a validation error, for any input', () => {
		fc.assert(
			fc.property(rawList, (input) => {
				const result = outcome(() => normalizeComponentList(input));
				if (result.ok) expectCanonical(result.value);
			}),
			{ numRuns: RUNS },
		);
	});

	it('is idempotent: normalizing its own output changes nothing', () => {
		fc.assert(
			fc.property(rawList, (input) => {
				const once = outcome(() => normalizeComponentList(input));
				if (once.ok) expect(normalizeComponentList(once.value)).toEqual(once.value);
			}),
			{ numRuns: RUNS },
		);
	});

	it('reads JSON text exactly like the object it encodes', () => {
		fc.assert(
			fc.property(jsonSafeList, (list) => {
				const direct = outcome(() => normalizeComponentList(list));
				const viaText = outcome(() => normalizeComponentList(JSON.stringify(list)));
				expect(viaText.ok).toBe(direct.ok);
				if (direct.ok && viaText.ok) expect(viaText.value).toEqual(direct.value);
			}),
			{ numRuns: RUNS },
		);
	});

	it('reads any text safely: JSON or not, a component_list or a validation error', () => {
		fc.assert(
			fc.property(nastyString, (text) => {
				const result = outcome(() => normalizeComponentList(text));
				if (result.ok) expectCanonical(result.value);
			}),
			{ numRuns: RUNS },
		);
	});
});

describe('button names', () => {
	it('parse to a result or undefined, and canonical names round-trip', () => {
		fc.assert(
			fc.property(buttonNameLike, (name) => {
				const parsed = parseButtonName(name);
				const canonical = canonicalButtonName(name);
				expect(canonical === undefined).toBe(parsed === undefined);
				if (canonical === undefined) return;
				expect(canonical).toMatch(CANONICAL_BUTTON);
				expect(canonical).not.toMatch(CRLF);
				expect(canonicalButtonName(canonical)).toBe(canonical);
				expect(parseButtonName(canonical)).toEqual(parsed);
			}),
			{ numRuns: RUNS },
		);
	});

	it('map every rule-4 variant (type x separator x case x index) to type:<n>', () => {
		fc.assert(
			fc.property(indexTargetedVariant, ({ name, canonical }) => {
				expect(canonicalButtonName(name)).toBe(canonical);
			}),
			{ numRuns: RUNS },
		);
	});

	it('read placeholder numbers by value, leading zeros and padding aside; never 0', () => {
		fc.assert(
			fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), fc.nat(3), (n, zeros) => {
				const name = ` ${'0'.repeat(zeros)}${n} `;
				expect(canonicalButtonName(name)).toBe(n === 0 ? undefined : String(n));
			}),
			{ numRuns: RUNS },
		);
	});

	it('refuse numbers too large to hold exactly, instead of rewriting them', () => {
		fc.assert(
			fc.property(
				fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER) + 1n, max: 10n ** 40n }),
				fc.constantFrom('', 'button:', 'url_', 'quick-reply-'),
				(big, prefix) => {
					expect(canonicalButtonName(`${prefix}${big}`)).toBeUndefined();
				},
			),
			{ numRuns: 500 },
		);
	});
});
