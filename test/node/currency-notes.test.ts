import { flowSendParameters, jsonItems, smsSendParameters, hintsOf, useNodeEnv } from './support';

/**
 * Money figures say their currency where SMSLeopard names it (SMS: in the answer's message; the
 * balance: `currency`) and say plainly, once per run, where it does not.
 */
const env = useNodeEnv();

const twoCustomers = jsonItems({ phone: '+254700400001' }, { phone: '+254700400002' });

it('Send Template: the cost stays as given, no currency field reads "none", and the output says why once', async () => {
	const { items, error, run } = await env.run(flowSendParameters, twoCustomers);
	expect(error).toBeUndefined();
	expect(items.map(({ json }) => [json.cost, 'currency' in json])).toEqual([
		[0.8, false],
		[0.8, false],
	]);
	expect(hintsOf(run)).toEqual([
		"The cost is in your account's currency: SMSLeopard's WhatsApp answer does not name it (Account > Get Balance shows your account's currency).",
	]);
});

it('Send SMS names the currency its answer gives, with no note', async () => {
	const { items, error, run } = await env.run(smsSendParameters(), twoCustomers);
	expect(error).toBeUndefined();
	expect(items.map(({ json }) => json.currency)).toEqual(['KES', 'KES']);
	expect(hintsOf(run)).toEqual([]);
});

it('Get Balance names the account currency and says the converted one is not named', async () => {
	const { items, error, run } = await env.run({ resource: 'account', operation: 'getBalance' });
	expect(error).toBeUndefined();
	expect(items[0].json).toMatchObject({ currency: 'KES', convertedBalance: expect.any(Number) });
	expect(hintsOf(run)).toEqual([
		'convertedBalance is balance × conversionRate: SMSLeopard does not say into which currency it converts.',
	]);
});
