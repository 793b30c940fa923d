/**
 * Values to Send read from the item gives what n8n's own expression engine gives, for any mapping
 * and any item: every value below is compared with n8n-core's real ExecuteContext reading the same
 * parameter of the same item. A mapping whose every expression is a path into the item (maybe with
 * a text for an empty field) is read without the engine; anything else, or a field that is not
 * text, is still n8n's to answer.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExecuteContext } from 'n8n-core';
import type { IDataObject, INodeExecutionData, INodeParameters, INodeType } from 'n8n-workflow';

import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { withParametersReadOnce } from '../../nodes/SmsLeopard/helpers/parameters-once';
import { executeContextFor, shutdownHarness } from '../harness';
import { TEMPLATES } from '../sandbox';
import { smsSendParameters, templateSendParameters } from './support';

afterAll(() => shutdownHarness());

const nodeType = new SmsLeopard();

type Reading = { value: unknown } | { threw: string };
function read(get: () => unknown): Reading {
	try {
		return { value: get() };
	} catch (error) {
		return { threw: (error as Error).message };
	}
}

/** n8n's evaluations of `name` while `run` runs (each builds a whole expression context). */
function engineReadsDuring(name: string, run: () => void): number {
	const prototype = ExecuteContext.prototype as unknown as {
		_getNodeParameter: (name: string) => unknown;
	};
	const spy = jest.spyOn(prototype, '_getNodeParameter');
	try {
		run();
		return spy.mock.calls.filter(([asked]) => asked === name).length;
	} finally {
		spy.mockRestore();
	}
}

/** Every item's `name` as n8n reads it and as the node's context reads it, and n8n's work for it. */
function bothReadings(
	parameters: INodeParameters,
	items: INodeExecutionData[],
	name: string,
	type: INodeType = nodeType,
) {
	const context = executeContextFor({ nodeType: type, parameters, items });
	const once = withParametersReadOnce(context, type.description.properties);
	const readings = items.map((_, index) => ({
		n8n: read(() => context.getNodeParameter(name, index, {})),
		node: undefined as Reading | undefined,
	}));
	const engine = engineReadsDuring(name, () => {
		readings.forEach((reading, index) => {
			reading.node = read(() => once.getNodeParameter(name, index, {}));
		});
	});
	return { readings, engine };
}

const mapping = (value: Record<string, unknown>, extra: IDataObject = {}) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: [
		{ id: 'header_1', displayName: 'Header 1', type: 'string', required: true, display: true },
		{ id: 'body_1', displayName: 'Body 1', type: 'string', required: true, display: true },
	],
	...extra,
});
const sendWith = (templateFields: unknown) =>
	templateSendParameters(TEMPLATES.textHeader.id, { templateFields } as IDataObject);

const keys = fc.constantFrom('name', 'first', 'Name', '$x', 'with space', 'ünï', '0', 'toString');
const leaf = fc.oneof(
	{ weight: 6, arbitrary: fc.string({ maxLength: 6 }) },
	fc.constantFrom('', ' ', 'Amina', '={{ 1 + 1 }}', 'null', '0'),
	fc.integer(),
	fc.boolean(),
	fc.constant(null),
	fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }),
);
const itemJson = fc.dictionary(
	keys,
	fc.oneof({ weight: 2, arbitrary: leaf }, fc.dictionary(keys, leaf, { maxKeys: 3 })),
	{ maxKeys: 6 },
);

/** A path as written in an expression, one or two fields deep, mostly into fields items hold. */
const pathKeys = fc.oneof(
	{ weight: 4, arbitrary: fc.constantFrom('name', 'first', 'with space') },
	keys,
);
const path = fc.array(pathKeys, { minLength: 1, maxLength: 2 }).chain((fields) =>
	fc
		.array(fc.constantFrom('dot', 'single', 'double'), {
			minLength: fields.length,
			maxLength: fields.length,
		})
		.map((styles) =>
			fields
				.map((field, at) =>
					styles[at] === 'dot' && /^[A-Za-z_$][\w$]*$/.test(field)
						? `.${field}`
						: styles[at] === 'double'
							? `["${field}"]`
							: `['${field}']`,
				)
				.join(''),
		),
);

/** What a mapped value can be: the forms read without n8n, and near misses n8n must answer. */
const mappedValue = fc.oneof(
	fc.constantFrom('our spring sale', '', 42, true, null),
	{ weight: 3, arbitrary: path.map((at) => `={{ $json${at} }}`) },
	{
		weight: 4,
		arbitrary: fc
			.tuple(path, fc.constantFrom('||', '??'), fc.constantFrom("'there'", '"there"', "''", "' '"))
			.map(([at, operator, text]) => `={{ $json${at} ${operator} ${text} }}`),
	},
	path.map((at) => `={{$json${at}||'friend'}}`),
	// Near misses: n8n's to answer.
	{
		weight: 2,
		arbitrary: fc.oneof(
			path.map((at) => `={{ $json${at} || 'a' || 'b' }}`),
			path.map((at) => `={{ $json${at} || 'x}}' }}`),
			path.map((at) => `={{ $json${at} || 5 }}`),
			path.map((at) => `={{ $json${at} + '' }}`),
			path.map((at) => `=Hi {{ $json${at} }}`),
			path.map((at) => `={{ $json${at} }} `),
			path.map((at) => `={{ $json${at} || '\\'' }}`),
		),
	},
);

describe('Values to Send read without the expression engine', () => {
	it('reads every item as n8n reads it, for any mapping and any item (property)', () => {
		let fast = 0;
		fc.assert(
			fc.property(
				fc.array(itemJson, { minLength: 1, maxLength: 3 }),
				fc.dictionary(fc.constantFrom('header_1', 'body_1', 'body_2'), mappedValue, {
					minKeys: 1,
					maxKeys: 3,
				}),
				(objects, value) => {
					const items = objects.map((json) => ({ json: json as IDataObject }));
					const { readings, engine } = bothReadings(
						sendWith(mapping(value)),
						items,
						'templateFields',
					);
					for (const { n8n, node } of readings) {
						expect({ value, node }).toEqual({ value, node: n8n });
					}
					fast += items.length - engine;
				},
			),
			{ numRuns: 300 },
		);
		// The property met many mappings read without n8n: the case this reading is for.
		expect(fast).toBeGreaterThan(40);
	});

	it("asks n8n nothing for the shipped campaign's Values to Send when each field is text or empty", () => {
		const workflow = JSON.parse(
			readFileSync(join(__dirname, '../../examples/campaign-batch-whatsapp-template.json'), 'utf8'),
		) as { nodes: Array<{ type: string; parameters: INodeParameters }> };
		const send = workflow.nodes.find((node) => node.type.endsWith('smsLeopard'));
		const templateFields = send?.parameters.templateFields;
		expect(templateFields).toBeDefined();
		const items = [{ name: 'Amina' }, { name: '' }, {}, { name: null }].map((json) => ({
			json: { phone: '+254700000001', ...json } as IDataObject,
		}));
		const { readings, engine } = bothReadings(sendWith(templateFields), items, 'templateFields');
		expect(readings.map(({ node }) => node)).toEqual(readings.map(({ n8n }) => n8n));
		expect(readings.map(({ node }) => (node as { value: { value: unknown } }).value.value)).toEqual(
			['Amina', 'there', 'there', 'there'].map((name) => ({
				header_1: name,
				body_1: name,
				body_2: 'our spring sale',
			})),
		);
		expect(engine).toBe(0);
	});

	it('leaves an item whose field is not text to n8n', () => {
		const items = [{ name: 'Amina' }, { name: 7 }, { name: { first: 'A' } }].map((json) => ({
			json: json as IDataObject,
		}));
		const { readings, engine } = bothReadings(
			sendWith(mapping({ body_1: "={{ $json.name || 'there' }}" })),
			items,
			'templateFields',
		);
		expect(readings.map(({ node }) => node)).toEqual(readings.map(({ n8n }) => n8n));
		expect(engine).toBe(2);
	});

	it('leaves a parameter n8n checks against its description to n8n', () => {
		// n8n turns a checked parameter's text into its type: the item's text would not be n8n's answer.
		const checked = new SmsLeopard();
		checked.description = {
			...checked.description,
			properties: checked.description.properties.map((property) =>
				property.name === 'recipient' ? { ...property, validateType: 'number' } : property,
			),
		};
		const items = [{ json: { phone: '254700000001' } }];
		const parameters = smsSendParameters({ recipient: "={{ $json.phone || '0' }}" });
		const { readings, engine } = bothReadings(parameters, items, 'recipient', checked);
		expect(readings[0].n8n).toEqual({ value: 254700000001 });
		expect(readings[0].node).toEqual(readings[0].n8n);
		expect(engine).toBe(1);
		// The same parameter, not checked, is read from the item.
		expect(bothReadings(parameters, items, 'recipient').engine).toBe(0);
	});
});
