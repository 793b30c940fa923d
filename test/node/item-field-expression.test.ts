/**
 * `{{ $json.phone }}` read straight from the item gives what n8n's own expression engine gives, for
 * any item and any expression: every value below is compared with n8n-core's real ExecuteContext
 * reading the same parameter of the same item. An expression that is more than a path into the
 * item's fields, or a field that is not text, is still n8n's to answer.
 */
import fc from 'fast-check';
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { itemFieldPath } from '../../nodes/SmsLeopard/helpers/item-field-expression';
import { withParametersReadOnce } from '../../nodes/SmsLeopard/helpers/parameters-once';
import { executeContextFor, shutdownHarness } from '../harness';
import { smsSendParameters } from './support';

afterAll(() => shutdownHarness());

const nodeType = new SmsLeopard();

/** Every item's `recipient` as n8n reads it and as the node's context reads it. */
function bothReadings(raw: string, items: INodeExecutionData[]) {
	const context = executeContextFor({
		nodeType,
		parameters: smsSendParameters({ recipient: raw }),
		items,
	});
	const once = withParametersReadOnce(context, nodeType.description.properties);
	const read = (get: () => unknown) => {
		try {
			return { value: get() };
		} catch (error) {
			return { threw: (error as Error).message };
		}
	};
	return items.map((_, index) => ({
		n8n: read(() => context.getNodeParameter('recipient', index)),
		node: read(() => once.getNodeParameter('recipient', index)),
	}));
}

/** n8n's expression evaluations while `run` runs (each builds a whole expression context). */
function engineReadsDuring(run: () => void): number {
	const prototype = ExecuteContext.prototype as unknown as {
		_getNodeParameter: (name: string) => unknown;
	};
	const spy = jest.spyOn(prototype, '_getNodeParameter');
	try {
		run();
		return spy.mock.calls.filter(([name]) => name === 'recipient').length;
	} finally {
		spy.mockRestore();
	}
}

const keys = fc.constantFrom(
	'phone',
	'a',
	'b',
	'Phone',
	'$x',
	'_id',
	'with space',
	'dash-ed',
	'ünï',
	'0',
	'constructor',
	'toString',
	'length',
	'__proto__',
);
const leaf = fc.oneof(
	fc.string(),
	fc.constantFrom('+254700000001', '', ' ', '={{ 1 + 1 }}', '{{ $json.a }}', 'null'),
	fc.integer(),
	fc.double(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string(), { maxLength: 2 }),
);
const json = fc.letrec((tie) => ({
	object: fc.dictionary(keys, fc.oneof({ depthSize: 'small' }, leaf, tie('object')), {
		maxKeys: 4,
	}),
})).object;

type Style = 'dot' | 'double' | 'single' | 'spaced';
/** A path step as written in an expression: `.a`, `["a"]`, `['a']`, `[ 'a' ]`. */
const stepOf = (key: string, style: Style) =>
	style === 'dot'
		? `.${key}`
		: style === 'double'
			? `["${key}"]`
			: style === 'single'
				? `['${key}']`
				: `[ '${key}' ]`;
const styles = fc.constantFrom<Style>('dot', 'double', 'single', 'spaced');

/** Every path into `json` up to three steps, and one step past each: the fields an item holds. */
function pathsInto(json: unknown, depth = 3): string[][] {
	if (depth === 0) return [];
	const keys = json !== null && typeof json === 'object' ? Object.keys(json) : [];
	return [
		['past'],
		...keys.flatMap((key) => [
			[key],
			...pathsInto((json as Record<string, unknown>)[key], depth - 1).map((rest) => [key, ...rest]),
		]),
	];
}

/** How the path sits in the parameter: alone (the simple case), or in near misses around it. */
const wraps = fc.constantFrom(
	(path: string) => `={{ $json${path} }}`,
	(path: string) => `={{$json${path}}}`,
	(path: string) => `={{  $json${path}  }}`,
	(path: string) => `={{ $json${path} }} `,
	(path: string) => `=x{{ $json${path} }}`,
	(path: string) => `={{ $json${path} }}{{ $json${path} }}`,
	(path: string) => `={{ $json${path}.trim() }}`,
	(path: string) => `={{ $json${path} + '' }}`,
	(path: string) => `={{ $json${path} || 'none' }}`,
	(path: string) => `={{$json${path}??""}}`,
	(path: string) => `={{ $json${path} ?? 'none' || 'x' }}`,
	(path: string) => `={{ $json${path}?.length }}`,
	(path: string) => `={{ $input.item.json${path} }}`,
	(path: string) => `{{ $json${path} }}`,
	(path: string) => `={{ $json${path}[0] }}`,
);

describe('an item field read without the expression engine', () => {
	it('reads every item as n8n reads it, for any item and any expression (property)', () => {
		let text = 0;
		fc.assert(
			fc.property(
				fc.array(json, { minLength: 1, maxLength: 3 }),
				wraps,
				fc.array(styles, { minLength: 4, maxLength: 4 }),
				(objects, wrap, style) => {
					const items = objects.map((object) => ({ json: object as IDataObject }));
					// Every field the first item holds, written in every style, as the parameter.
					for (const path of pathsInto(objects[0])) {
						const raw = wrap(path.map((key, at) => stepOf(key, style[at % 4])).join(''));
						for (const { n8n, node } of bothReadings(raw, items)) {
							expect({ raw, node }).toEqual({ raw, node: n8n });
							if (typeof n8n.value === 'string') text++;
						}
					}
				},
			),
			{ numRuns: 120 },
		);
		// The property met many fields holding text: the case the node reads without n8n.
		expect(text).toBeGreaterThan(100);
	});

	it('asks n8n nothing for `{{ $json.phone }}` when the field is text', () => {
		const items = ['+254700000001', '0712345678'].map((phone) => ({ json: { phone } }));
		const context = executeContextFor({ nodeType, parameters: smsSendParameters(), items });
		const once = withParametersReadOnce(context, nodeType.description.properties);
		let values: unknown[] = [];
		const reads = engineReadsDuring(() => {
			values = items.map((_, index) => once.getNodeParameter('recipient', index));
		});
		expect(values).toEqual(['+254700000001', '0712345678']);
		expect(reads).toBe(0);
	});

	it('leaves a number, a missing field and any other expression to n8n', () => {
		const items = [{ json: { phone: 254700000001 } }, { json: {} }, { json: { phone: ' +2547 ' } }];
		const context = executeContextFor({ nodeType, parameters: smsSendParameters(), items });
		const once = withParametersReadOnce(context, nodeType.description.properties);
		expect(
			engineReadsDuring(() => items.forEach((_, i) => once.getNodeParameter('recipient', i))),
		).toBe(2);
		const trimmed = executeContextFor({
			nodeType,
			parameters: smsSendParameters({ recipient: '={{ $json.phone.trim() }}' }),
			items: [items[2]],
		});
		const trimmedOnce = withParametersReadOnce(trimmed, nodeType.description.properties);
		let value: unknown;
		expect(engineReadsDuring(() => (value = trimmedOnce.getNodeParameter('recipient', 0)))).toBe(1);
		expect(value).toBe('+2547');
	});

	it('knows a path into the item from anything else', () => {
		expect(itemFieldPath('={{ $json.phone }}')).toEqual(['phone']);
		expect(itemFieldPath('={{$json.contact["mobile no"]}}')).toEqual(['contact', 'mobile no']);
		expect(itemFieldPath("={{ $json['a'].b }}")).toEqual(['a', 'b']);
		for (const other of [
			'={{ $json }}',
			'={{ $json.phone }} ',
			'{{ $json.phone }}',
			'={{ $json.phone.trim() }}',
			'={{ $json.constructor }}',
			'={{ $json["a\\"b"] }}',
			'={{ $json[0] }}',
			'={{ $node.x.json.phone }}',
			'+254700000001',
		]) {
			expect({ other, path: itemFieldPath(other) }).toEqual({ other, path: undefined });
		}
	});
});
