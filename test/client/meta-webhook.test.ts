/**
 * Meta's WhatsApp webhook family read into stable fields (client/inbound/meta-webhook.ts): each message
 * type and a status with its errors, conversation and pricing (the cases in meta-family.ts), and the
 * same field set on every event of a kind, null where the post had nothing.
 */
import { readWebhookEvents } from '../../nodes/SmsLeopard/client';
import { META_CASES, metaPost } from './meta-family';

describe("Meta's WhatsApp webhook family", () => {
	it.each(META_CASES.map((entry) => [entry.name, entry]))('%s', (_name, entry) => {
		const events = readWebhookEvents(entry.post);
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject(entry.read);
	});

	it('every inbound message carries the same fields, null when absent', () => {
		// The opt-out marks alone are there only on an opt-out or opt-in word (docs/opt-outs.md).
		const marks = ['optOut', 'optOutWord'];
		const keys = META_CASES.filter((entry) => entry.read.event === 'whatsappMessage').map((entry) =>
			Object.keys(readWebhookEvents(entry.post)[0])
				.filter((key) => !marks.includes(key))
				.sort(),
		);
		for (const set of keys) expect(set).toEqual(keys[0]);
		const [text] = readWebhookEvents(META_CASES[0].post);
		expect(text).toMatchObject({ media: null, reaction: null, location: null, order: null });
	});

	it("several messages and statuses in one post: one event each, in the post's order", () => {
		const post = metaPost({
			messages: [
				{ from: '254722000041', id: 'wamid.a', type: 'text', text: { body: 'one' } },
				{ from: '254722000042', id: 'wamid.b', type: 'text', text: { body: 'two' } },
			],
			statuses: [{ id: 'wamid.c', status: 'read', recipient_id: '254722000043' }],
		});
		expect(readWebhookEvents(post).map((event) => [event.messageId, event.outcome])).toEqual([
			['wamid.a', null],
			['wamid.b', null],
			['wamid.c', 'delivered'],
		]);
	});
});
