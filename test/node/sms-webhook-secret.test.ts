/**
 * The secret typed once: Send SMS with a Delivery Report URL and no Delivery Report Secret of its
 * own sends the credential's Webhook Secret (what an SMSLeopard Trigger v2 checks), redacted from
 * every output like the key. Its own secret still wins; with neither, the item is refused before
 * anything is sent, naming the field and what to do.
 */
import { jsonItems, smsSendParameters, useNodeEnv } from './support';

const env = useNodeEnv({ echoRequestBody: true });
const WEBHOOK_SECRET = 'credential-webhook-secret-5c81';
const reportUrl = 'https://n8n.example.com/webhook/abc/smsleopard';

const sendSms = (smsOptions: Record<string, unknown>) =>
	smsSendParameters({ smsOptions: { statusUrl: reportUrl, ...smsOptions } });

describe("Send SMS and the credential's Webhook Secret", () => {
	it("an empty Delivery Report Secret sends the credential's, and no output shows it", async () => {
		const result = await env.run(sendSms({}), jsonItems({ phone: '+254700000001' }), {
			webhookSecret: WEBHOOK_SECRET,
		});
		expect(result.error).toBeUndefined();
		expect(env.sends()).toEqual([
			expect.objectContaining({ status_url: reportUrl, status_secret: WEBHOOK_SECRET }),
		]);
		expect(JSON.stringify(result.outputs)).not.toContain(WEBHOOK_SECRET);
	});

	it('an echo of the request in an error answer shows it redacted', async () => {
		const result = await env.run(
			smsSendParameters({ source: 'Unregistered_ID', smsOptions: { statusUrl: reportUrl } }),
			jsonItems({ phone: '+254700000001' }),
			{ webhookSecret: WEBHOOK_SECRET, continueOnFail: true },
		);
		expect(String(result.items[0].json.error)).toContain('"status_secret":"[redacted]"');
		expect(JSON.stringify(result.outputs)).not.toContain(WEBHOOK_SECRET);
	});

	it("the item's own Delivery Report Secret wins over the credential's", async () => {
		await env.run(
			sendSms({ statusSecret: 'own-secret-1234' }),
			jsonItems({ phone: '+254700000001' }),
			{
				webhookSecret: WEBHOOK_SECRET,
			},
		);
		expect(env.sends()).toEqual([expect.objectContaining({ status_secret: 'own-secret-1234' })]);
	});

	it("without a Delivery Report URL the credential's secret is not sent", async () => {
		await env.run(smsSendParameters(), jsonItems({ phone: '+254700000001' }), {
			webhookSecret: WEBHOOK_SECRET,
		});
		expect(env.sends()).toHaveLength(1);
		expect(env.sends()[0]).not.toHaveProperty('status_secret');
	});

	it('with neither, nothing is sent and the error names the field and both ways to fix it', async () => {
		const result = await env.run(sendSms({}), jsonItems({ phone: '+254700000001' }));
		expect(env.sends()).toEqual([]);
		const text = `${result.error?.message} ${result.error?.description}`;
		expect(text).toContain('Delivery Report Secret');
		expect(text).toContain("credential's Webhook Secret");
	});
});
