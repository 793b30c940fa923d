/**
 * Every row of docs/delivery-report-fields.md: a delivery report shaped as that gateway documents
 * its callback, read into the trigger's fields. A row without a sample, or a sample read otherwise
 * than the table says, fails here; so does a status word of the table read as another outcome.
 */
import { readFileSync } from 'fs';
import path from 'path';
import { outcomeOf, readWebhookEvents } from '../../nodes/SmsLeopard/client';
import { SAMPLES } from './gateway-samples';

const TABLE = readFileSync(path.join(__dirname, '../../docs/delivery-report-fields.md'), 'utf8');

/** The first cells of a markdown table's body rows under a heading. */
function rowsUnder(heading: string): string[][] {
	const section = TABLE.split(`## ${heading}\n`)[1].split(/^## /m)[0];
	return section
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
		.slice(1)
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		);
}

describe('delivery reports as SMS gateways post them (docs/delivery-report-fields.md)', () => {
	const gateways = rowsUnder('Fields').map((row) => row[0]);

	it('the table and the samples name the same gateways', () => {
		expect(gateways.length).toBeGreaterThanOrEqual(10);
		expect([...gateways].sort()).toEqual(Object.keys(SAMPLES).sort());
	});

	it.each(Object.keys(SAMPLES))('%s', (gateway) => {
		for (const sample of SAMPLES[gateway]) {
			const events = readWebhookEvents(sample.post);
			expect(events).toHaveLength(sample.read.length);
			events.forEach((event, index) => {
				expect(event.event).toBe('smsDeliveryReport');
				expect(event).toMatchObject(sample.read[index]);
			});
		}
	});

	it.each(rowsUnder('Status words').map((row) => [row[0].replace(/`/g, ''), row[1]]))(
		'every %s word of the table reads so',
		(outcome, words) => {
			const listed = [...words.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
			expect(listed.length).toBeGreaterThan(3);
			for (const word of listed) expect([word, outcomeOf(word)]).toEqual([word, outcome]);
		},
	);

	it('the names the issue saw unread: phoneNumber, failureReason, desc, doneAt', () => {
		const [event] = readWebhookEvents({
			messageId: 'm1',
			status: 'UNDELIV',
			phoneNumber: '+254711000009',
			desc: 'Absent subscriber',
			doneAt: '2026-11-25T08:00:00Z',
		});
		expect(event).toMatchObject({
			number: '+254711000009',
			reason: 'Absent subscriber',
			time: '2026-11-25T08:00:00.000Z',
		});
	});

	it('a status word no gateway listed reads as unknown, never guessed', () => {
		expect(outcomeOf('PARTIALLY_DELIVERED')).toBe('unknown');
		const [event] = readWebhookEvents({ id: 'x1', status: { groupName: 'MYSTERY', name: 'HUH' } });
		expect(event).toMatchObject({ status: 'HUH', outcome: 'unknown' });
	});
});
