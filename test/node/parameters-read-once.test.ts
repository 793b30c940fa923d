/**
 * Parameters are read once: a parameter without an expression once per run, one with an expression
 * once per item, however many places read it. Counted on n8n-core's own ExecuteContext, the context
 * n8n gives the node, while the node sends through the sandbox.
 */
import { ExecuteContext } from 'n8n-core';

import { holdsExpression } from '../../nodes/SmsLeopard/helpers/parameters-once';
import { flowSendParameters, phoneItems, smsSendParameters, useNodeEnv } from './support';

const env = useNodeEnv();

const customers = (count: number) =>
	phoneItems('+2547005', count, (index) => ({ name: `Customer ${index}` }));

/**
 * n8n's parameter reads during one run, by parameter name: ExecuteContext's getNodeParameter is an
 * arrow function set per instance that calls the prototype's `_getNodeParameter`, so that is counted.
 */
async function readsDuring(run: () => Promise<unknown>): Promise<Map<string, number>> {
	const prototype = ExecuteContext.prototype as unknown as {
		_getNodeParameter: (name: string) => unknown;
	};
	const spy = jest.spyOn(prototype, '_getNodeParameter');
	try {
		await run();
		const reads = new Map<string, number>();
		for (const [name] of spy.mock.calls) reads.set(name, (reads.get(name) ?? 0) + 1);
		return reads;
	} finally {
		spy.mockRestore();
	}
}

describe('parameters read once', () => {
	it('Send Template: 30 more items cost one read each, of the one parameter with an expression', async () => {
		// More than an item field (those are read from the item: item-field-expression.test.ts).
		const parameters = { ...flowSendParameters, destination: '={{ $json.phone.trim() }}' };
		const few = await readsDuring(async () => await env.run(parameters, customers(10)));
		const many = await readsDuring(async () => await env.run(parameters, customers(40)));
		expect(env.sandbox.state.sentMessages).toHaveLength(50);
		// destination is read once per item, wherever the node reads it.
		expect(many.get('destination')).toBe(40);
		// Every other parameter the same number of times, whatever the number of items.
		for (const [name, count] of many) {
			if (name !== 'destination') expect({ name, count }).toEqual({ name, count: few.get(name) });
		}
	});

	it("Send Template: n8n's copy of the node is taken per run, not per send", async () => {
		// getNode() deep-copies the node, parameters and all: once per request cost 20 µs a send.
		const spy = jest.spyOn(ExecuteContext.prototype, 'getNode');
		try {
			await env.run(flowSendParameters, customers(10));
			const few = spy.mock.calls.length;
			spy.mockClear();
			await env.run(flowSendParameters, customers(40));
			expect(env.sandbox.state.sentMessages).toHaveLength(50);
			expect(spy.mock.calls.length).toBe(few);
		} finally {
			spy.mockRestore();
		}
	});

	it('each item still gets its own value of a parameter with an expression', async () => {
		const items = customers(5);
		const { error } = await env.run(
			{ ...flowSendParameters, destination: '={{ $json.phone.trim() }}' },
			items,
		);
		expect(error).toBeUndefined();
		expect(env.sends().map((body) => body.destination)).toEqual(
			items.map((item) => item.json.phone),
		);
	});

	it('`{{ $json.phone }}` is read from each item: n8n evaluates no expression for it', async () => {
		const items = customers(5);
		const reads = await readsDuring(async () => await env.run(flowSendParameters, items));
		expect(reads.get('destination')).toBeUndefined();
		expect(env.sends().map((body) => body.destination)).toEqual(
			items.map((item) => item.json.phone),
		);
	});

	it('Send SMS: a text with an expression is filled per item; the sender is read once', async () => {
		const reads = await readsDuring(
			async () =>
				await env.run(
					smsSendParameters({ message: '=Hello {{ $json.name }}', textMode: 'customized' }),
					customers(20),
				),
		);
		expect(reads.get('message')).toBe(20);
		expect(reads.get('source')).toBe(1);
		const texts = env.sandbox.state.smsMessages.map((sms) => sms.message);
		expect(texts).toEqual(Array.from({ length: 20 }, (_, index) => `Hello Customer ${index}`));
	});

	it('tells an expression anywhere inside a value from plain text', () => {
		expect(holdsExpression('={{ $json.phone }}')).toBe(true);
		expect(holdsExpression('+254700000001')).toBe(false);
		expect(holdsExpression('a = b')).toBe(false);
		expect(holdsExpression({ __rl: true, mode: 'id', value: '={{ $json.template }}' })).toBe(true);
		expect(holdsExpression({ __rl: true, mode: 'id', value: 'tpl_1' })).toBe(false);
		expect(holdsExpression({ values: [{ name: 'a', value: 'x' }, { value: '={{ 1 }}' }] })).toBe(
			true,
		);
		expect(holdsExpression(undefined)).toBe(false);
		expect(holdsExpression(12)).toBe(false);
	});
});
