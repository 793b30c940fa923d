import { jsonItems, smsSendParameters, useNodeEnv } from './support';

const env = useNodeEnv({ smsDeliveryMs: 300 });

const smsSends = () =>
	env.sandbox.requests
		.filter((request) => request.path === '/v1/sms/send')
		.map((request) => request.body as Record<string, unknown>);

const sendSms = smsSendParameters;

const customers = jsonItems(
	{ phone: '+254700000001', name: 'Amina' },
	{ phone: '0700000002', name: 'Brian' },
	{ phone: '254700000003', name: 'Chao' },
);

describe('Message > Send SMS in the real n8n engine', () => {
	it('sends one text to many items per request and outputs recipient, id, status, parts and cost', async () => {
		const { items, error } = await env.run(
			sendSms({ smsOptions: { recipientsPerRequest: 2 } }),
			customers,
		);
		expect(error).toBeUndefined();
		expect(smsSends()).toEqual([
			{
				source: 'SMS_Leopard',
				message: 'Flash sale today only',
				destination: [{ number: '+254700000001' }, { number: '0700000002' }],
			},
			{
				source: 'SMS_Leopard',
				message: 'Flash sale today only',
				destination: [{ number: '254700000003' }],
			},
		]);
		const ids = env.sandbox.state.smsMessages.map((m) => m.id);
		expect(items.map((item) => item.json)).toEqual([
			{
				// The input item's fields come along (Include Input Fields, on by default in 1.2).
				name: 'Amina',
				phone: '+254700000001',
				outcome: 'sent',
				recipient: '+254700000001',
				number: '+254700000001',
				messageId: ids[0],
				status: 'queued',
				message: 'Flash sale today only',
				parts: 1,
				encoding: 'GSM-7',
				characters: 21,
				cost: 0.9,
				currency: 'KES',
			},
			expect.objectContaining({
				recipient: '0700000002',
				number: '+254700000002',
				messageId: ids[1],
			}),
			expect.objectContaining({ recipient: '254700000003', messageId: ids[2] }),
		]);
		expect(items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});

	it('customizes the text per recipient from the item fields (multi: true)', async () => {
		const { items, error } = await env.run(
			sendSms({ textMode: 'customized', message: 'Dear {name}, your code is {code} 😀' }),
			jsonItems(
				{ phone: '+254700000001', name: 'Amina', code: 17 },
				{ phone: '+254700000002', name: 'Brian', code: 18 },
			),
		);
		expect(error).toBeUndefined();
		expect(smsSends()).toEqual([
			{
				source: 'SMS_Leopard',
				message: 'Dear {name}, your code is {code} 😀',
				multi: true,
				destination: [
					{ number: '+254700000001', message: 'Dear Amina, your code is 17 😀' },
					{ number: '+254700000002', message: 'Dear Brian, your code is 18 😀' },
				],
			},
		]);
		expect(items[0].json).toMatchObject({
			encoding: 'UCS-2',
			parts: 1,
			nonGsmCharacters: ['😀'],
		});
	});

	it('keeps input order and pairing when items with different texts go in different requests', async () => {
		const { items } = await env.run(
			sendSms({ message: '={{ $json.text }}' }),
			jsonItems(
				{ phone: '+254700000001', text: 'A' },
				{ phone: '+254700000002', text: 'B' },
				{ phone: '+254700000003', text: 'A' },
			),
		);
		expect(smsSends().map((body) => body.message)).toEqual(['A', 'B']);
		expect(items.map((item) => [item.json.recipient, item.pairedItem])).toEqual([
			['+254700000001', { item: 0 }],
			['+254700000002', { item: 1 }],
			['+254700000003', { item: 2 }],
		]);
	});

	it('refuses an item over Max Parts per Message before anything is sent', async () => {
		const { error } = await env.run(
			sendSms({ message: '={{ $json.text }}', smsOptions: { maxParts: 1 } }),
			jsonItems(
				{ phone: '+254700000001', text: 'Short' },
				{ phone: '+254700000002', text: 'Don’t miss it, '.repeat(6) },
			),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 2: "Message" would be sent in 2 parts .*UCS-2.*"Max Parts per Message"/,
		);
		expect(smsSends()).toHaveLength(0);
	});

	it('with Continue On Fail sends the others and outputs the refused item as an error', async () => {
		const { items } = await env.run(
			sendSms({ textMode: 'customized', message: 'Hi {name}' }),
			jsonItems({ phone: '+254700000001', name: 'Amina' }, { phone: '+254700000002' }),
			{ continueOnFail: true },
		);
		expect(items[0].json).toMatchObject({ recipient: '+254700000001', status: 'queued' });
		expect(items[1].json.error).toMatch(/placeholder\(s\) \{name\}/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(smsSends()).toHaveLength(1);
	});

	it('requires the secret with a delivery report URL, naming the field', async () => {
		const { error } = await env.run(
			sendSms({ smsOptions: { statusUrl: 'https://n8n.example.com/webhook/sms' } }),
			customers,
		);
		expect(error?.message).toMatch(
			/"Delivery Report Secret" is required when a delivery report URL/,
		);
		expect(smsSends()).toHaveLength(0);
		await env.run(
			sendSms({
				smsOptions: { statusUrl: 'https://n8n.example.com/webhook/sms', statusSecret: 's3cr3t' },
			}),
			jsonItems({ phone: '+254700000001' }),
		);
		expect(smsSends()[0]).toMatchObject({ status_secret: 's3cr3t' });
	});

	it('reports every item of a request whose answer was lost as maybe sent, and never resends', async () => {
		env.sandbox.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		const { items } = await env.run(
			sendSms({ smsOptions: { recipientsPerRequest: 2 } }),
			customers,
			{ continueOnFail: true },
		);
		expect(smsSends()).toHaveLength(2);
		expect(env.sandbox.state.smsMessages).toHaveLength(3);
		expect(items.map((item) => item.json)).toEqual([
			expect.objectContaining({
				mayHaveBeenSent: true,
				error: expect.stringMatching(/^Maybe sent: .*items 1-2/),
			}),
			expect.objectContaining({ mayHaveBeenSent: true }),
			expect.objectContaining({
				mayHaveBeenSent: true,
				error: expect.stringMatching(/\(item 3\)/),
			}),
		]);
	});

	it('treats a 5xx answer as maybe sent too, without repeating the request', async () => {
		env.sandbox.setOptions({ failureRate: 1 });
		const { items } = await env.run(sendSms(), customers, { continueOnFail: true });
		expect(smsSends()).toHaveLength(1);
		expect(items.map((item) => item.json.mayHaveBeenSent)).toEqual([true, true, true]);
		expect(items[0].json.error).toMatch(/answered HTTP 500/);
	});

	it('without Continue On Fail stops after a lost answer and says the items may have been sent', async () => {
		env.sandbox.setOptions({ resetRate: 1, resetMode: 'afterHandling' });
		const { error } = await env.run(
			{
				...sendSms({ smsOptions: { recipientsPerRequest: 1 } }),
				requestOptions: { concurrency: 1 },
			},
			customers,
		);
		expect(smsSends()).toHaveLength(1);
		expect(error?.message).toMatch(/^Maybe sent: .*\(item 1\)/);
		expect(error?.description).toMatch(/Item 1 may have been sent .*it was not sent again/);
	});
});

describe('Delivery Report > Get and Account > Get Balance', () => {
	it('reads a report by the message id of a send, which changes from pending to delivered', async () => {
		const sent = await env.run(sendSms(), jsonItems({ phone: '+254700000001' }));
		const report = () =>
			env.run(
				{
					resource: 'deliveryReport',
					operation: 'get',
					messageId: '={{ $json.messageId }}',
					// The report alone: the send's fields would come along by default (node version 1.2).
					includeInputFields: false,
				},
				sent.items,
			);
		const first = await report();
		// Pending at first (queued, or already sent on a slow machine), delivered once the sandbox's
		// delivery time has passed: polled, bounded, never a fixed sleep.
		expect(first.items[0].json).toEqual({
			messageId: sent.items[0].json.messageId,
			status: expect.stringMatching(/^(queued|sent)$/),
			outcome: 'pending',
			reason: '',
			time: expect.any(Number),
			updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		});
		let last = first.items[0].json;
		for (let i = 0; i < 50 && last.status !== 'DELIVRD'; i++) {
			await new Promise((resolve) => setTimeout(resolve, 100));
			last = (await report()).items[0].json;
		}
		expect(last).toMatchObject({ status: 'DELIVRD', outcome: 'delivered' });
	});

	it('names a message id that does not exist', async () => {
		const { error } = await env.run(
			{
				resource: 'deliveryReport',
				operation: 'get',
				messageId: '00000000-0000-4000-8000-000000000000',
			},
			jsonItems({}),
		);
		expect(error?.message).toContain('No message with id');
	});

	it('reads the balance with its currency, lower after a send', async () => {
		await env.run(sendSms(), jsonItems({ phone: '+254700000001' }));
		const { items } = await env.run(
			{ resource: 'account', operation: 'getBalance' },
			jsonItems({}),
		);
		expect(items[0].json).toEqual({
			balance: 99_999.1,
			currency: 'KES',
			convertedBalance: expect.any(Number),
			conversionRate: expect.any(Number),
		});
	});
});
