/**
 * Number fields filled by expressions: every value the editor would not accept ("abc", "", 0, 1.5,
 * -1, NaN, 100000 over a maximum, an object) is refused before any request, naming the field as the
 * editor shows it and the item; never crashed on, rounded or clamped. Digits given as text work.
 */
import type { INodeParameters } from 'n8n-workflow';
import { TEMPLATES } from '../sandbox';
import {
	type NodeEnv,
	flowSendParameters,
	jsonItems,
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

const sendSms = (smsOptions: INodeParameters) => smsSendParameters({ smsOptions });

/** Expressions giving each bad value (NaN and Infinity cannot travel in an item's JSON). */
const BAD_VALUES: Array<[string, string]> = [
	['"abc"', "={{ 'abc' }}"],
	['""', "={{ '' }}"],
	['0', '={{ 0 }}'],
	['1.5', '={{ 1.5 }}'],
	['-2', '={{ -2 }}'],
	['NaN', '={{ 0 / 0 }}'],
	['Infinity', '={{ 1 / 0 }}'],
	['an object', '={{ { n: 5 } }}'],
	['true', '={{ true }}'],
];

const twoItems = jsonItems({ phone: '+254700000001' }, { phone: '+254700000002' });

describe('Send SMS numbers from expressions', () => {
	it.each([
		...BAD_VALUES.map(([name, value]) => [name, value, 'Recipients per Request'] as const),
		['100000 (over 1000)', '={{ 100000 }}', 'Recipients per Request'] as const,
	])(
		'Recipients per Request %s: refused naming the field and the item, nothing sent',
		async (_name, value) => {
			const { error } = await env.run(sendSms({ recipientsPerRequest: value }), twoItems);
			expect(error?.message).toMatch(/^Invalid input in item 1: "Recipients per Request" must be/);
			expect(env.sandbox.requests).toHaveLength(0);
		},
	);

	it.each(BAD_VALUES)(
		'Max Parts per Message %s: refused naming the field and the item, nothing sent',
		async (_name, value) => {
			const { error } = await env.run(sendSms({ maxParts: value }), twoItems);
			expect(error?.message).toMatch(/^Invalid input in item 1: "Max Parts per Message" must be/);
			expect(env.sandbox.requests).toHaveLength(0);
		},
	);

	it('a bad value in a later item names that item, and stops the run before any request', async () => {
		const { error } = await env.run(
			sendSms({ recipientsPerRequest: '={{ $json.size }}' }),
			jsonItems(
				{ phone: '+254700000001', size: 2 },
				{ phone: '+254700000002', size: 2 },
				{ phone: '+254700000003', size: 'two' },
			),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 3: "Recipients per Request" must be a number \(got "two"\)/,
		);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('with Continue On Fail only the item with the bad value fails; the others go out', async () => {
		const { items } = await env.run(
			sendSms({ maxParts: '={{ $json.max }}' }),
			jsonItems({ phone: '+254700000001', max: 1 }, { phone: '+254700000002', max: 0.5 }),
			{ continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ recipient: '+254700000001', status: 'queued' });
		expect(items[1].json.error).toMatch(/"Max Parts per Message" must be a whole number/);
		expect(env.sends()).toHaveLength(1);
	});

	it('digits as text are the number they spell: "2" recipients per request', async () => {
		const { error } = await env.run(
			sendSms({ recipientsPerRequest: "={{ '2' }}", maxParts: "={{ '1' }}" }),
			jsonItems({ phone: '+254700000001' }, { phone: '+254700000002' }, { phone: '+254700000003' }),
		);
		expect(error).toBeUndefined();
		const batches = env.sandbox.requests
			.filter((request) => request.path === '/v1/sms/send')
			.map((request) => (request.body as { destination: unknown[] }).destination.length);
		expect(batches).toEqual([2, 1]);
	});
});

describe('Request Options numbers from expressions', () => {
	const send = (requestOptions: INodeParameters) => ({
		...flowSendParameters,
		requestOptions,
	});

	it.each([
		['concurrency', 'Items in Parallel', '={{ 1.5 }}', 'must be a whole number'],
		['concurrency', 'Items in Parallel', '={{ 100000 }}', 'must be 200 or less'],
		['concurrency', 'Items in Parallel', '={{ 0 }}', 'must be 1 or more'],
		['concurrency', 'Items in Parallel', '={{ 0 / 0 }}', 'must be a number'],
		['timeout', 'Timeout (Seconds)', '={{ -5 }}', 'must be 1 or more'],
		['timeout', 'Timeout (Seconds)', '={{ 1 / 0 }}', 'must be a number'],
		['requestsPerSecond', 'Max Requests per Second', '={{ -1 }}', 'must be 0 or more'],
		['maxRateLimitWait', 'Max Wait on Rate Limit (Seconds)', "={{ '' }}", 'must be a number'],
		['sharedBy', 'Executions Sharing the Limit', '={{ 0 }}', 'must be 1 or more'],
		['sharedBy', 'Executions Sharing the Limit', '={{ 2.5 }}', 'must be a whole number'],
	])('%s %s: refused as "%s", naming the first item', async (name, label, value, problem) => {
		const { error } = await env.run(send({ [name]: value }), jsonItems({ phone: '+254700000001' }));
		expect(error?.message).toContain(
			`Invalid input in item 1: Request Options > ${label} ${problem}`,
		);
		expect(env.sandbox.requests).toHaveLength(0);
	});
});

describe('Send Template Define Below numbers from expressions', () => {
	const define = (body: unknown, button: unknown): INodeParameters => ({
		...flowSendParameters,
		template: templateLocator(TEMPLATES.quickReplies.id),
		bodyVariables: { variable: [{ placeholder: body, value: 'Amina' }] } as INodeParameters,
		buttons: { button: [{ kind: 'quickReply', position: button, value: 'no' }] } as INodeParameters,
	});

	it.each(BAD_VALUES)(
		'a placeholder number %s is refused naming the entry, nothing sent',
		async (_name, value) => {
			const { error } = await env.run(define(value, 2), jsonItems({ phone: '+254700000001' }));
			expect(error?.message).toMatch(
				/^Invalid input in item 1: "Body Variables, entry 1 \(placeholder\)" must be/,
			);
			expect(env.sends()).toHaveLength(0);
		},
	);

	it.each(BAD_VALUES)(
		'a button position %s is refused naming the position, not a neighbouring button',
		async (_name, value) => {
			const { error } = await env.run(define(1, value), jsonItems({ phone: '+254700000001' }));
			expect(error?.message).toMatch(
				/^Invalid input in item 1: "Buttons, entry 1 \(position\)" must be/,
			);
			expect(env.sends()).toHaveLength(0);
		},
	);

	it('digits as text: placeholder "1" and position "2" send quick_reply:1', async () => {
		const { error } = await env.run(
			define("={{ '1' }}", "={{ '2' }}"),
			jsonItems({ phone: '+254700000001' }),
		);
		expect(error).toBeUndefined();
		expect(JSON.stringify(env.sends()[0])).toContain('{"name":"quick_reply:1","value":"no"}');
	});
});

describe('Group > Get Many Limit from an expression', () => {
	const groups = (limit: string) => ({
		resource: 'group',
		operation: 'getAll',
		returnAll: false,
		limit,
	});

	it.each(BAD_VALUES)('%s is refused naming "Limit" and the item', async (_name, value) => {
		const { error } = await env.run(groups(value), jsonItems({}));
		expect(error?.message).toMatch(/^Invalid input in item 1: "Limit" must be/);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('"3" gives 3 groups', async () => {
		const { items, error } = await env.run(groups("={{ '3' }}"), jsonItems({}));
		expect(error).toBeUndefined();
		expect(items).toHaveLength(3);
	});
});
