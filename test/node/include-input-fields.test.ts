import { flowSendParameters, hintsOf, jsonItems, smsSendParameters, useNodeEnv } from './support';

/**
 * Include Input Fields: a node after a send still has the customer's fields. On by default for
 * nodes added with version 1.2; workflows saved with 1 or 1.1 keep the output they had.
 */
const env = useNodeEnv();

/** The run's notes about moved input fields (other notes, such as the currency's, aside). */
const moveNotes = (run: Parameters<typeof hintsOf>[0]) =>
	hintsOf(run).filter((hint) => hint.startsWith('Include Input Fields'));

const customer = { phone: '+254700400001', name: 'Amina', status: 'lead', orderId: 'A-17' };

describe('Include Input Fields', () => {
	it('1.2 (new nodes): on by default; an input field the result replaces is kept under input', async () => {
		const { items, error } = await env.run(flowSendParameters, jsonItems(customer));
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			name: 'Amina',
			orderId: 'A-17',
			phone: '+254700400001',
			status: 'Success',
			messageId: env.sandbox.state.sentMessages[0].id,
			input: { status: 'lead' },
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	it('the recipe undelivered SMS -> WhatsApp: no row shows one send beside another', async () => {
		// A delivery report of an SMS (as the trigger outputs it) feeds a WhatsApp send.
		const report = {
			phone: '+254700400001',
			messageId: 'sms-31',
			status: 'Success',
			outcome: 'failed',
		};
		const { items, error } = await env.run(flowSendParameters, jsonItems(report));
		expect(error).toBeUndefined();
		const [sent] = env.sandbox.state.sentMessages;
		expect(items[0].json).toMatchObject({
			outcome: 'sent',
			messageId: sent.id,
			phone: '+254700400001',
			input: { messageId: 'sms-31', status: 'Success', outcome: 'failed' },
		});
	});

	it('moving an input field is said above the output, naming the fields and where they are now', async () => {
		const report = { phone: '+254700400001', messageId: 'sms-31', status: 'Success' };
		const moved = await env.run(flowSendParameters, jsonItems(report, report));
		expect(moveNotes(moved.run)).toEqual([
			expect.stringContaining(
				'Include Input Fields: input fields with the name of a result field were moved under "input": messageId (now input.messageId), status (now input.status). After this node, $json.messageId is the result\'s; read the input\'s as $json.input.messageId',
			),
		]);
		// Nothing moved, nothing said.
		const plain = await env.run(
			flowSendParameters,
			jsonItems({ phone: '+254700400001', name: 'Amina' }),
		);
		expect(moveNotes(plain.run)).toEqual([]);
		const off = await env.run(
			{ ...flowSendParameters, includeInputFields: false },
			jsonItems(report),
		);
		expect(moveNotes(off.run)).toEqual([]);
	});

	it('an input field named input is never overwritten', async () => {
		const { items } = await env.run(
			flowSendParameters,
			jsonItems({ phone: '+254700400001', input: 'form A', status: 'lead' }),
		);
		expect(items[0].json).toMatchObject({ input: 'form A', _input: { status: 'lead' } });
	});

	it.each([1, 1.1])('%s (saved workflows): off unless turned on', async (typeVersion) => {
		const off = await env.run(flowSendParameters, jsonItems(customer), { typeVersion });
		expect(off.items[0].json).not.toHaveProperty('name');
		expect(off.items[0].json).not.toHaveProperty('orderId');
		const on = await env.run(
			{ ...flowSendParameters, includeInputFields: true },
			jsonItems(customer),
			{ typeVersion },
		);
		expect(on.items[0].json).toMatchObject({ name: 'Amina', orderId: 'A-17' });
	});

	it('1.2 turned off: the result alone', async () => {
		const { items } = await env.run(
			{ ...flowSendParameters, includeInputFields: false },
			jsonItems(customer),
		);
		expect(items[0].json).not.toHaveProperty('name');
		expect(items[0].json.status).toBe('Success');
	});

	it('Send SMS and Contact > Create keep the fields too, each item its own', async () => {
		const sms = await env.run(
			smsSendParameters(),
			jsonItems(customer, { ...customer, phone: '+254700400002', name: 'Brian' }),
		);
		expect(sms.items.map((item) => [item.json.name, item.json.recipient])).toEqual([
			['Amina', '+254700400001'],
			['Brian', '+254700400002'],
		]);
		const contact = await env.run(
			{ resource: 'contact', operation: 'create', phoneNumber: '={{ $json.phone }}' },
			jsonItems({ phone: '+254722400001', segment: 'vip' }),
		);
		expect(contact.items[0].json).toMatchObject({
			segment: 'vip',
			phone_number: expect.any(String),
		});
	});

	it('operations with many output items per input (Group > Get Many) are not offered it', async () => {
		const { items } = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: true, includeInputFields: true },
			jsonItems({ campaign: 'x' }),
		);
		expect(items.length).toBeGreaterThan(0);
		for (const item of items) expect(item.json).not.toHaveProperty('campaign');
	});
});
