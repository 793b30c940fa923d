/**
 * The parameter memory answers every question as n8n answers it: the same parameter asked with
 * another fallback or other options, at another item, in any order, gets what n8n-core's real
 * ExecuteContext gives for that very question. The memory reuses the last key asked per
 * parameter, so a question that only differs in its fallback (a fresh `{}`, another text, nothing)
 * must never get an earlier question's answer.
 */
import fc from 'fast-check';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { withParametersReadOnce } from '../../nodes/SmsLeopard/helpers/parameters-once';
import { executeContextFor, shutdownHarness } from '../harness';
import { jsonItems, smsSendParameters } from './support';

afterAll(() => shutdownHarness());

const nodeType = new SmsLeopard();

const parameters = smsSendParameters({
	message: '=Hello {{ $json.name }}',
	smsOptions: { maxParts: 2 },
	options: { concurrency: 5 },
});
const items = jsonItems(
	{ phone: '+254700000001', name: 'Ann' },
	{ phone: '+254700000002', name: 'Ben' },
	{ phone: '+254700000003', name: 'Cy' },
);

/**
 * Present and absent parameters, plain and with expressions, top level and inside collections; few
 * names, so one name is often asked again with another fallback (absent ones return the fallback).
 */
const names = fc.oneof(
	{
		arbitrary: fc.constantFrom(
			'source',
			'recipient',
			'message',
			'smsOptions',
			'smsOptions.maxParts',
			'options.concurrency',
		),
		weight: 1,
	},
	{ arbitrary: fc.constantFrom('absent', 'smsOptions.statusUrl'), weight: 2 },
);
/** Fallbacks as call sites write them: fresh objects every time, texts, numbers, nothing. */
const fallbacks = fc.constantFrom<() => unknown>(
	() => undefined,
	() => '',
	() => 'same',
	() => 0,
	() => 10,
	() => ({}),
	() => ({ a: 1 }),
	() => [],
	() => null,
	() => false,
);
/** Mostly none, as most call sites ask. */
const optionsOf = fc.oneof(
	{ arbitrary: fc.constant(() => undefined), weight: 4 },
	{
		arbitrary: fc.constantFrom<() => Record<string, unknown> | undefined>(
			() => ({ rawExpressions: true }),
			() => ({ extractValue: true }),
		),
		weight: 1,
	},
);
const question = fc.record({
	name: names,
	itemIndex: fc.integer({ min: 0, max: items.length - 1 }),
	fallback: fallbacks,
	options: optionsOf,
});

function answer(get: () => unknown) {
	try {
		return { value: get() };
	} catch (error) {
		return { threw: (error as Error).message };
	}
}

describe('the parameter memory', () => {
	it('answers any run of questions as n8n answers each of them (property)', () => {
		fc.assert(
			fc.property(fc.array(question, { minLength: 1, maxLength: 30 }), (questions) => {
				const context = executeContextFor({ nodeType, parameters, items });
				const once = withParametersReadOnce(context, nodeType.description.properties);
				for (const { name, itemIndex, fallback, options } of questions) {
					const n8n = answer(() =>
						context.getNodeParameter(name, itemIndex, fallback(), options()),
					);
					const node = answer(() => once.getNodeParameter(name, itemIndex, fallback(), options()));
					expect({ name, itemIndex, ...node }).toEqual({ name, itemIndex, ...n8n });
				}
			}),
			{ numRuns: 500 },
		);
	});

	it('an absent parameter asked again with another fallback gets that fallback', () => {
		const context = executeContextFor({ nodeType, parameters, items });
		const once = withParametersReadOnce(context, nodeType.description.properties);
		expect(once.getNodeParameter('absent', 0, {})).toEqual({});
		expect(once.getNodeParameter('absent', 0, {})).toEqual({});
		expect(once.getNodeParameter('absent', 0, { a: 1 })).toEqual({ a: 1 });
		expect(once.getNodeParameter('absent', 0, 'text')).toBe('text');
		expect(once.getNodeParameter('absent', 0, {})).toEqual({});
		// n8n refuses an absent parameter asked without a fallback: so does the memory.
		expect(() => once.getNodeParameter('absent', 0)).toThrow('Could not get parameter');
	});
});
