import { readWebhookEvents } from '../../nodes/SmsLeopard/client';

const report = {
	event: 'smsDeliveryReport',
	messageId: 'eb4647b2-2695-4aba-958e-0b39d965f6d0',
	status: 'DELIVRD',
	outcome: 'delivered',
	reason: null,
	time: '2021-07-15T23:00:00.000Z',
	number: '+254712345678',
};

describe('reading what SMSLeopard posts back', () => {
	it.each([
		[
			'a flat JSON report',
			{
				id: report.messageId,
				status: 'DELIVRD',
				reason: '',
				time: 1626390000,
				number: '+254712345678',
			},
		],
		[
			'the same as JSON text',
			JSON.stringify({
				id: report.messageId,
				status: 'DELIVRD',
				time: 1626390000,
				number: '+254712345678',
			}),
		],
		[
			'form-encoded text',
			`message_id=${report.messageId}&status=DELIVRD&time=1626390000&msisdn=%2B254712345678`,
		],
		[
			'wrapped under data, other field names, milliseconds',
			{
				data: {
					messageId: report.messageId,
					deliveryStatus: 'DELIVRD',
					timestamp: 1626390000000,
					phone: '+254712345678',
				},
			},
		],
		[
			'an ISO time and a status in lower case',
			{
				msg_id: report.messageId,
				dlr_status: 'delivrd',
				done_date: report.time,
				to: '+254712345678',
			},
		],
	])('%s', (_, body) => {
		const [event] = readWebhookEvents(body);
		expect({ ...event, status: event.status?.toUpperCase() }).toEqual(report);
	});

	it('one event per report of an array or a wrapped list, in order', () => {
		const reports = ['a', 'b', 'c'].map((id, index) => ({
			message_id: id,
			delivery_status: index === 1 ? 'UNDELIV' : 'sent',
		}));
		for (const body of [reports, { event: 'delivery_report', data: reports }, { reports }]) {
			expect(readWebhookEvents(body).map((event) => [event.messageId, event.outcome])).toEqual([
				['a', 'pending'],
				['b', 'failed'],
				['c', 'pending'],
			]);
		}
	});

	it("reads Meta's WhatsApp webhook: a quick-reply tap, a text, an interactive reply and statuses", () => {
		const value = {
			messaging_product: 'whatsapp',
			messages: [
				{
					from: '254712345678',
					id: 'wamid.in1',
					timestamp: '1626390000',
					type: 'button',
					context: { id: 'wamid.out1' },
					button: { payload: 'stop', text: 'Stop promotions' },
				},
				{ from: '254712345679', id: 'wamid.in2', type: 'text', text: { body: 'Hello' } },
				{
					from: '254712345670',
					id: 'wamid.in3',
					type: 'interactive',
					interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
				},
			],
			statuses: [
				{ id: 'wamid.out1', status: 'read', timestamp: '1626390100', recipient_id: '254712345678' },
				{
					id: 'wamid.out2',
					status: 'failed',
					recipient_id: '254712345679',
					errors: [{ code: 131026, title: 'Message undeliverable' }],
				},
			],
		};
		const events = readWebhookEvents({
			object: 'whatsapp_business_account',
			entry: [{ id: 'waba', changes: [{ field: 'messages', value }] }],
		});
		expect(events).toEqual([
			expect.objectContaining({
				event: 'whatsappMessage',
				messageId: 'wamid.in1',
				number: '254712345678',
				type: 'button',
				quickReplyPayload: 'stop',
				buttonText: 'Stop promotions',
				repliedTo: 'wamid.out1',
				time: '2021-07-15T23:00:00.000Z',
			}),
			expect.objectContaining({ event: 'whatsappMessage', text: 'Hello', quickReplyPayload: null }),
			expect.objectContaining({
				event: 'whatsappMessage',
				quickReplyPayload: 'yes',
				buttonText: 'Yes',
			}),
			expect.objectContaining({
				event: 'whatsappStatus',
				messageId: 'wamid.out1',
				outcome: 'delivered',
			}),
			expect.objectContaining({
				event: 'whatsappStatus',
				outcome: 'failed',
				reason: 'Message undeliverable',
			}),
		]);
	});

	it.each([
		['an empty body', ''],
		['a text', 'hello'],
		['an object without a report', { hello: 'world' }],
		['a number', 42],
		['null', null],
		['a report without a status', { id: 'x' }],
	])('%s is one unrecognised event, never an error', (_, body) => {
		expect(readWebhookEvents(body)).toEqual([
			expect.objectContaining({ event: 'unrecognised', messageId: null }),
		]);
	});

	it('a wrapper nested beyond its depth bound is not followed', () => {
		let body: unknown = { id: 'deep', status: 'DELIVRD' };
		for (let level = 0; level < 10; level++) body = { data: body };
		expect(readWebhookEvents(body)[0].event).toBe('unrecognised');
	});
});
