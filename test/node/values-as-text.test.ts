/**
 * Values that become text on the wire are taken from what the user meant, never from JavaScript's
 * machinery: a customized SMS fills {field} from the item's own fields only ({constructor} is not
 * the source of a function), and a number that String() cannot write exactly (Infinity from JSON's
 * 1e400, NaN, an integer that lost digits) is refused naming the field and the item, never sent as
 * "Infinity".
 */
import { TEMPLATES } from '../sandbox';
import {
	type NodeEnv,
	jsonItems,
	senderLocator,
	startNodeEnv,
	templateLocator,
	smsSendParameters,
} from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const customizedSms = (message: string) =>
	smsSendParameters({ textMode: 'customized', message, smsOptions: { maxParts: 10 } });

/** Every text a request carried, so a test can say what never went out. */
const sentText = () => JSON.stringify(env.sandbox.requests.map((request) => request.body));

describe('Customized SMS placeholders fill from the item’s own fields', () => {
	it.each([
		'constructor',
		'__proto__',
		'toString',
		'hasOwnProperty',
		'valueOf',
		'isPrototypeOf',
		'__defineGetter__',
		'name.constructor',
		'name.length',
	])(
		'{%s} of an item without that field is a missing field: refused, nothing sent',
		async (path) => {
			const { error } = await env.run(
				customizedSms(`Hi {${path}}`),
				jsonItems({ phone: '+254700000001', name: 'Amina' }),
			);
			expect(error?.message).toContain(
				`Invalid input in item 1: "Message" has placeholder(s) {${path}} that the item has no text or number for`,
			);
			expect(env.sandbox.requests).toHaveLength(0);
			expect(sentText()).not.toMatch(/function|native code|\[object/);
		},
	);

	it('an own field named like an inherited one is used', async () => {
		const { items, error } = await env.run(
			customizedSms('Hi {constructor}, {toString}'),
			jsonItems({ phone: '+254700000001', constructor: 'Amina', toString: 'karibu' }),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(env.sends()[0]).toMatchObject({
			destination: [{ number: '+254700000001', message: 'Hi Amina, karibu' }],
		});
	});

	it.each([
		['Infinity', Number.POSITIVE_INFINITY, /\{amount\} is Infinity/],
		['-Infinity', Number.NEGATIVE_INFINITY, /\{amount\} is -Infinity/],
		['NaN', Number.NaN, /\{amount\} is NaN/],
		[
			'an integer that lost digits',
			12345678901234567890,
			/\{amount\} is 12345678901234567000, a number with more digits/,
		],
	])(
		'a field holding %s is refused, naming the placeholder and the item',
		async (_name, amount, problem) => {
			const { error } = await env.run(
				customizedSms('You owe {amount}'),
				jsonItems({ phone: '+254700000001', amount: 5 }, { phone: '+254700000002', amount }),
			);
			expect(error?.message).toMatch(/^Invalid input in item 2: "Message" placeholder /);
			expect(error?.message).toMatch(problem);
			expect(env.sandbox.requests).toHaveLength(0);
		},
	);

	it('numbers, true/false and nested fields still fill as before', async () => {
		const { error } = await env.run(
			customizedSms('{n} {f} {ok} {order.id}'),
			jsonItems({ phone: '+254700000001', n: 17, f: 2.5, ok: true, order: { id: 'A-1' } }),
		);
		expect(error).toBeUndefined();
		expect(env.sends()[0]).toMatchObject({
			destination: [{ number: '+254700000001', message: '17 2.5 true A-1' }],
		});
	});
});

describe('Numbers that would go out as "Infinity"', () => {
	const template = {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: senderLocator,
		destination: '={{ $json.phone }}',
		template: templateLocator(TEMPLATES.bodyOnly.id),
	};

	it.each([
		['1e400 (Infinity)', '1e400', /is Infinity/],
		['-1e400', '-1e400', /is -Infinity/],
		['12345678901234567890', '12345678901234567890', /more digits than can be kept exact/],
	])(
		'Send Template Using JSON: a value %s is refused naming Components (JSON) and the item',
		async (_name, literal, problem) => {
			const { error } = await env.run(
				{
					...template,
					variablesMode: 'json',
					componentList: `{"components":[{"component_type":"BODY","fields":[{"name":"1","value":"Amina"},{"name":"2","value":${literal}}]}]}`,
				},
				jsonItems({ phone: '+254700000001' }),
			);
			expect(error?.message).toMatch(/^Invalid input in item 1: "Components \(JSON\)/);
			expect(error?.message).toMatch(problem);
			expect(env.sends()).toHaveLength(0);
			expect(sentText()).not.toContain('Infinity');
		},
	);

	it('Send Template Using JSON: an exact number still goes out as its text', async () => {
		const { error } = await env.run(
			{
				...template,
				variablesMode: 'json',
				componentList:
					'{"components":[{"component_type":"BODY","fields":[{"name":"1","value":"Amina"},{"name":"2","value":1042}]}]}',
			},
			jsonItems({ phone: '+254700000001' }),
		);
		expect(error).toBeUndefined();
		expect(JSON.stringify(env.sends()[0])).toContain('{"name":"2","value":"1042"}');
	});

	it('Send Template From the Template: an expression giving Infinity is refused naming Body {{2}}', async () => {
		const { error } = await env.run(
			{
				...template,
				variablesMode: 'template',
				templateFields: {
					mappingMode: 'defineBelow',
					value: { body_1: 'Amina', body_2: '={{ 1 / 0 }}' },
				},
			},
			jsonItems({ phone: '+254700000001' }),
		);
		expect(error?.message).toMatch(/^Invalid input in item 1: "Body \{\{2\}\}" is Infinity/);
		expect(sentText()).not.toContain('Infinity');
	});

	it('Send Template Define Below: a number from an expression goes out as its text; Infinity is refused', async () => {
		const define = (second: string) => ({
			...template,
			variablesMode: 'define',
			bodyVariables: {
				variable: [
					{ placeholder: 1, value: 'Amina' },
					{ placeholder: 2, value: second },
				],
			},
		});
		const refused = await env.run(define('={{ 1 / 0 }}'), jsonItems({ phone: '+254700000001' }));
		expect(refused.error?.message).toMatch(
			/^Invalid input in item 1: "Body Variables, entry 2 \(value\)" is Infinity/,
		);
		expect(env.sends()).toHaveLength(0);
		const sent = await env.run(
			define('={{ $json.order }}'),
			jsonItems({ phone: '+254700000001', order: 1042 }),
		);
		expect(sent.error).toBeUndefined();
		expect(JSON.stringify(env.sends()[0])).toContain('{"name":"2","value":"1042"}');
	});

	it('Contact > Create: a custom attribute of Infinity is refused naming it', async () => {
		const { error } = await env.run(
			{
				resource: 'contact',
				operation: 'create',
				phoneNumber: '={{ $json.phone }}',
				additionalFields: {
					customAttributes: { attribute: [{ name: 'score', value: '={{ 1 / 0 }}' }] },
				},
			},
			jsonItems({ phone: '+254722100001' }),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 1: "Custom Attributes, entry 1 \(value\)" is Infinity/,
		);
		expect(env.sandbox.requests).toHaveLength(0);
	});
});
