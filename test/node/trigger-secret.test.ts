/**
 * Where the SMSLeopard Trigger's secret lives: version 2 reads the SMSLeopard API credential's
 * Webhook Secret; version 1 keeps its own Secret field and works as before. Run in n8n-core's real
 * WebhookContext (its getCredentials and getNodeParameter).
 */
import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { WEBHOOK_SECRET, post } from './trigger-support';

const report = { id: 'r1', status: 'DELIVRD' };

describe('SMSLeopard Trigger version 2: the secret from the credential', () => {
	it("a post with the credential's Webhook Secret starts the workflow; the secret is in no item", async () => {
		const answer = await post({ ...report, status_secret: WEBHOOK_SECRET });
		expect(answer.status).toBeUndefined();
		expect(answer.items).toEqual([
			expect.objectContaining({ messageId: 'r1', outcome: 'delivered', body: { ...report } }),
		]);
		expect(JSON.stringify(answer.items)).not.toContain(WEBHOOK_SECRET);
	});

	it('a post with another secret gets 401 and starts nothing on the Events output', async () => {
		const answer = await post(report, { headers: { 'x-status-secret': 'not-it' } });
		expect(answer.status).toBe(401);
		expect(answer.result.workflowData?.[0]).toEqual([]);
		expect(answer.items).toEqual([]);
	});

	it('a credential without a Webhook Secret lets nothing in, even a post with an empty secret', async () => {
		const answer = await post({ ...report, status_secret: '' }, { webhookSecret: '' });
		expect(answer.status).toBe(401);
		expect(answer.warnings[0].message).toContain('credential has no Webhook Secret');
	});

	it("Meta's subscription check answers with the credential's secret as verify token", async () => {
		const query = {
			'hub.mode': 'subscribe',
			'hub.verify_token': WEBHOOK_SECRET,
			'hub.challenge': '42',
		};
		const answer = await post({}, { query, webhookName: 'setup' });
		expect([answer.status, answer.body]).toEqual([200, '42']);
		const wrong = await post(
			{},
			{ query: { ...query, 'hub.verify_token': 'x' }, webhookName: 'setup' },
		);
		expect(wrong.status).toBe(401);
	});

	it('the node asks for the credential at version 2 only, and has no Secret field there', () => {
		const { description } = new SmsLeopardTrigger();
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
		expect(description.credentials).toEqual([
			expect.objectContaining({
				name: 'smsLeopardApi',
				required: true,
				displayOptions: { show: { '@version': [2] } },
			}),
		]);
		const secret = description.properties.find((property) => property.name === 'secret');
		expect(secret?.displayOptions).toEqual({ show: { '@version': [1] } });
		const notice = description.properties.find((property) => property.name === 'moveSecretNotice');
		expect(notice?.displayOptions).toEqual({ show: { '@version': [1] } });
	});
});

describe('SMSLeopard Trigger version 1, as saved workflows have it', () => {
	const V1_SECRET = 'node-parameter-secret-77';

	it('reads its own Secret field, with no credential at all', async () => {
		const answer = await post({ ...report, status_secret: V1_SECRET }, { v1Secret: V1_SECRET });
		expect(answer.items).toEqual([expect.objectContaining({ messageId: 'r1' })]);
		expect(JSON.stringify(answer.items)).not.toContain(V1_SECRET);
	});

	it('refuses the credential secret it does not use', async () => {
		const answer = await post(
			{ ...report, status_secret: WEBHOOK_SECRET },
			{ v1Secret: V1_SECRET },
		);
		expect(answer.status).toBe(401);
	});
});
