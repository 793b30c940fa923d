/**
 * Settings > On Error in n8n-core's real engine: with "Continue (using error output)" the failed
 * items leave on the error output and the sent ones on the success output; with "Continue" every
 * item stays on the one output, the failed ones as readable error items.
 */
import { flowSendParameters, jsonItems, useNodeEnv } from './support';

const env = useNodeEnv();

const parameters = {
	...flowSendParameters,
};
// Five recipients, two of them not phone numbers (items 1 and 3).
const recipients = () =>
	jsonItems(
		{ phone: '+254700300001' },
		{ phone: 'call me maybe' },
		{ phone: '+254700300003' },
		{ phone: '' },
		{ phone: '+254700300005' },
	);

describe('On Error settings in the real n8n engine', () => {
	it('Continue (using error output): 3 sent items on the success output, 2 invalid on the error output', async () => {
		const { outputs, error } = await env.run(parameters, recipients(), {
			onError: 'continueErrorOutput',
		});
		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(2);
		const [success, failed] = outputs;
		expect(success.map((item) => item.json.number)).toEqual([
			'+254700300001',
			'+254700300003',
			'+254700300005',
		]);
		expect(success.every((item) => typeof item.json.messageId === 'string')).toBe(true);
		expect(success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 2 }, { item: 4 }]);
		expect(failed).toHaveLength(2);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		for (const item of failed) {
			expect(item.json).toEqual({
				error: expect.objectContaining({
					message: expect.stringContaining('"Recipient"'),
					errorKind: 'validation',
					fields: ['Recipient'],
					description: expect.stringContaining('Nothing was sent for item'),
				}),
			});
		}
		expect(env.sends()).toHaveLength(3);
	});

	it('Continue (regular output): all 5 items on the one output, the 2 invalid as error items', async () => {
		const { outputs, error } = await env.run(parameters, recipients(), {
			onError: 'continueRegularOutput',
		});
		expect(error).toBeUndefined();
		expect(outputs).toHaveLength(1);
		const [items] = outputs;
		expect(items).toHaveLength(5);
		expect(items.map((item) => item.json.errorKind ?? 'sent')).toEqual([
			'sent',
			'validation',
			'sent',
			'validation',
			'sent',
		]);
		expect(items[1].json.error).toEqual(expect.stringContaining('"Recipient"'));
		expect(env.sends()).toHaveLength(3);
	});
});
