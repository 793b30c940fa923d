/**
 * Nothing dropped unseen: a report whose status is not understood passes every Statuses filter,
 * marked outcome "unknown"; understood ones are filtered as chosen.
 */
import { WEBHOOK_SECRET, post } from './trigger-support';

const reports = [
	{ id: 'd1', status: 'DELIVRD' },
	{ id: 'f1', status: 'UNDELIV' },
	{ id: 'p1', status: 'SENT' },
	{ id: 'u1', status: 'PARTIALLY_DELIVERED' },
	{ id: 'u2', status: { groupName: 'MYSTERY', name: 'HUH' } },
];

describe('Statuses filter and reports not understood', () => {
	it.each([
		['all', ['d1', 'f1', 'p1', 'u1', 'u2']],
		['final', ['d1', 'f1', 'u1', 'u2']],
		['delivered', ['d1', 'u1', 'u2']],
		['failed', ['f1', 'u1', 'u2']],
	])('%s', async (statuses, ids) => {
		const answer = await post(reports, {
			headers: { 'x-status-secret': WEBHOOK_SECRET },
			parameters: { statuses },
		});
		expect(answer.items.map((item) => item.messageId)).toEqual(ids);
		for (const item of answer.items.filter((entry) => String(entry.messageId).startsWith('u'))) {
			expect(item.outcome).toBe('unknown');
		}
	});
});
