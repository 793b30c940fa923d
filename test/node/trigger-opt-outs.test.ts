/**
 * The trigger in n8n's engine marks customer messages: an SMS reply or WhatsApp message that is an
 * opt-out or opt-in word carries `optOut` and the sender in normal form; the Default Country Code
 * option reads national senders; a trigger saved before SMS replies had their own event kind, with
 * Unrecognised Post chosen, still receives them.
 */
import { WEBHOOK_SECRET, post } from './trigger-support';

const headers = { 'x-status-secret': WEBHOOK_SECRET };
const smsReply = (from: string, text: string) => ({
	id: `in-${from}-${text}`,
	from,
	message: text,
});

describe('opt-out marks on the trigger output', () => {
	it('an SMS "STOP PROMO" from a national number is an opt-out from +254…', async () => {
		const answer = await post(smsReply('0712 345 678', 'STOP PROMO'), { headers });
		expect(answer.items).toEqual([
			expect.objectContaining({
				event: 'smsMessage',
				number: '0712 345 678',
				fromNormal: '+254712345678',
				optOut: 'opt out',
				optOutWord: 'STOP PROMO',
			}),
		]);
	});

	it('the Default Country Code option reads a national sender', async () => {
		const answer = await post(smsReply('0772 123 456', 'Start'), {
			headers,
			parameters: { options: { countryCode: '256' } },
		});
		expect(answer.items[0]).toMatchObject({ fromNormal: '+256772123456', optOut: 'opt in' });
	});

	it('a message that is no word has no optOut, and still its fromNormal', async () => {
		const answer = await post(smsReply('+254712345678', 'What time do you open?'), { headers });
		expect(answer.items[0]).toMatchObject({ event: 'smsMessage', fromNormal: '+254712345678' });
		expect(answer.items[0]).not.toHaveProperty('optOut');
	});

	it.each([
		['SMS Message or Reply chosen', ['smsMessage'], 1],
		['only Unrecognised Post chosen (saved before SMS replies had a kind)', ['unrecognised'], 1],
		['WhatsApp kinds only', ['whatsappMessage', 'smsDeliveryReport'], 0],
	])('an SMS reply with %s', async (_, events, count) => {
		const answer = await post(smsReply('+254712345678', 'STOP'), {
			headers,
			parameters: { events },
		});
		expect(answer.items).toHaveLength(count);
		if (count > 0)
			expect(answer.items[0]).toMatchObject({ event: 'smsMessage', optOut: 'opt out' });
	});
});
