/**
 * SMS replies and opt-out marks: an inbound SMS read from each gateway's documented inbound
 * callback shape (SMSLeopard documents none), never mistaken for a delivery report and no delivery
 * report mistaken for it; every customer message (SMS or WhatsApp, typed or a quick-reply tap)
 * marked `optOut` when it is an opt-out or opt-in word, with its sender in normal form.
 */
import { readWebhookEvents } from '../../nodes/SmsLeopard/client';
import { SAMPLES } from './gateway-samples';
import { metaPost } from './meta-family';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** One inbound SMS per gateway, as each documents its callback, saying `text` from `from`. */
function inboundFamily(text: string, from: string): Array<[string, unknown]> {
	const bare = from.replace(/^\+/, '');
	return [
		['a flat JSON reply (SMSLeopard, guessed)', { id: 'in-1', from, to: '22334', message: text }],
		['a reply under data', { event: 'inbound_message', data: { id: 'in-2', from, text } }],
		[
			"Africa's Talking (form)",
			form({ from, to: '22334', text, date: '2026-11-29T06:00:00Z', id: 'at-1', linkId: 'l1' }),
		],
		[
			'Twilio (form, SmsStatus received)',
			form({
				MessageSid: 'SM1',
				SmsStatus: 'received',
				From: from,
				To: '+254700000001',
				Body: text,
			}),
		],
		[
			'Vonage (msisdn is the sender)',
			{ msisdn: bare, to: '254700000001', messageId: 'vn-1', text, type: 'text' },
		],
		[
			'Infobip (results)',
			{
				results: [
					{
						messageId: 'ib-1',
						from: bare,
						to: '22334',
						text,
						receivedAt: '2026-11-29T06:00:00.000+0000',
					},
				],
			},
		],
		['Plivo (form)', form({ From: bare, To: '254700000001', Text: text, MessageUUID: 'pl-1' })],
		['MessageBird', { id: 'mb-1', originator: bare, recipient: '22334', body: text }],
		['SMPP-style', { source_addr: from, destination_addr: '22334', short_message: text }],
	];
}

describe('an SMS reply is read as smsMessage from every gateway shape', () => {
	it.each(inboundFamily('Hello there', '+254712345678'))('%s', (_, post) => {
		const [event, ...rest] = readWebhookEvents(post);
		expect(rest).toEqual([]);
		expect(event).toMatchObject({
			event: 'smsMessage',
			status: null,
			outcome: null,
			text: 'Hello there',
			fromNormal: '+254712345678',
		});
		expect(String(event.number)).toContain('254712345678');
		expect(event).not.toHaveProperty('optOut');
	});

	it.each(inboundFamily('Stop promo!', '+254712345678'))(
		'%s saying "Stop promo!" opts out',
		(_, post) => {
			expect(readWebhookEvents(post)).toEqual([
				expect.objectContaining({
					event: 'smsMessage',
					optOut: 'opt out',
					optOutWord: 'STOP PROMO',
					fromNormal: '+254712345678',
				}),
			]);
		},
	);

	it('a national sender takes the default country code, or the one set', () => {
		const post = { id: 'x', from: '0712 345 678', message: 'start' };
		expect(readWebhookEvents(post)[0]).toMatchObject({
			fromNormal: '+254712345678',
			optOut: 'opt in',
		});
		expect(readWebhookEvents(post, { countryCode: '256' })[0]).toMatchObject({
			fromNormal: '+256712345678',
		});
	});

	it('a sender that is not a number is kept as given, with fromNormal null', () => {
		const [event] = readWebhookEvents({ from: 'SAFARICOM', message: 'STOP' });
		expect(event).toMatchObject({
			event: 'smsMessage',
			number: 'SAFARICOM',
			fromNormal: null,
			optOut: 'opt out',
		});
	});
});

describe('delivery reports stay reports', () => {
	const samples = Object.entries(SAMPLES).flatMap(([gateway, list]) =>
		list.map((sample, index): [string, unknown] => [`${gateway} ${index + 1}`, sample.post]),
	);

	it.each(samples)('%s is no smsMessage and carries no opt-out mark', (_, post) => {
		for (const event of readWebhookEvents(post)) {
			expect(event.event).not.toBe('smsMessage');
			expect(event).not.toHaveProperty('optOut');
			expect(event).not.toHaveProperty('fromNormal');
		}
	});

	it('a report with a status and a text field is still a report (a status other than received)', () => {
		const [event] = readWebhookEvents({
			id: 'r1',
			status: 'DELIVRD',
			number: '+254712345678',
			message: 'STOP',
		});
		expect(event).toMatchObject({ event: 'smsDeliveryReport', outcome: 'delivered' });
		expect(event).not.toHaveProperty('optOut');
	});
});

describe('WhatsApp messages are marked the same way', () => {
	const whatsapp = (message: Record<string, unknown>) =>
		readWebhookEvents(
			metaPost({
				messages: [{ from: '254712345678', id: 'wamid.1', timestamp: '1795593600', ...message }],
			}),
		)[0];

	it.each([
		['a typed "Stop"', { type: 'text', text: { body: 'Stop' } }, 'opt out', 'STOP'],
		['a typed "acha."', { type: 'text', text: { body: 'acha.' } }, 'opt out', 'ACHA'],
		[
			'a quick-reply tap whose payload is the word',
			{ type: 'button', button: { payload: 'STOP', text: 'No more offers' } },
			'opt out',
			'STOP',
		],
		[
			'a quick-reply tap whose text is the word (payload opaque)',
			{ type: 'button', button: { payload: 'btn-7f3a', text: 'Unsubscribe' } },
			'opt out',
			'UNSUBSCRIBE',
		],
		[
			'an interactive reply whose id is the word',
			{
				type: 'interactive',
				interactive: { type: 'button_reply', button_reply: { id: 'start', title: 'Yes please' } },
			},
			'opt in',
			'START',
		],
	])('%s', (_, message, choice, word) => {
		expect(whatsapp(message)).toMatchObject({
			event: 'whatsappMessage',
			optOut: choice,
			optOutWord: word,
			fromNormal: '+254712345678',
		});
	});

	it('any country: the WhatsApp id is international without its plus', () => {
		const event = readWebhookEvents(
			metaPost({
				messages: [{ from: '14155552671', id: 'w2', type: 'text', text: { body: 'hi' } }],
			}),
		)[0];
		expect(event).toMatchObject({ fromNormal: '+14155552671' });
		expect(event).not.toHaveProperty('optOut');
	});

	it('statuses carry no mark', () => {
		const [status] = readWebhookEvents(
			metaPost({ statuses: [{ id: 'wamid.o', status: 'read', recipient_id: '254712345678' }] }),
		);
		expect(status.event).toBe('whatsappStatus');
		expect(status).not.toHaveProperty('fromNormal');
	});
});
