/**
 * The family of plausible delivery-report posts, generated: field names from the synonyms gateways
 * use, any wrapper chain within the bound, JSON, JSON text or form encoding, extra fields around,
 * one report or several. Each must read as the same stable fields; and any body at all reads
 * without throwing, as at least one event.
 */
import fc from 'fast-check';
import { carriesSecret, readWebhookEvents, withoutSecret } from '../../nodes/SmsLeopard/client';

const ID_NAMES = ['message_id', 'messageId', 'msg_id', 'id', 'uuid'];
const STATUS_NAMES = ['status', 'delivery_status', 'deliveryStatus', 'dlr_status', 'state'];
const NUMBER_NAMES = ['number', 'phone', 'msisdn', 'recipient', 'to'];
const WRAPPERS = ['data', 'report', 'reports', 'results', 'events', 'payload'];
const STATUSES: Array<[string, string]> = [
	['DELIVRD', 'delivered'],
	['UNDELIV', 'failed'],
	['EXPIRED', 'failed'],
	['REJECTD', 'failed'],
	['sent', 'pending'],
	['queued', 'pending'],
	['SOMETHING_NEW', 'unknown'],
];

const reportArb = fc.record({
	id: fc.uuid(),
	status: fc.constantFrom(...STATUSES),
	number: fc.integer({ min: 700000000, max: 799999999 }).map((n) => `+254${n}`),
	idName: fc.constantFrom(...ID_NAMES),
	statusName: fc.constantFrom(...STATUS_NAMES),
	numberName: fc.constantFrom(...NUMBER_NAMES),
	extra: fc.dictionary(
		fc.constantFrom('network', 'cost', 'parts', 'source', 'note'),
		fc.oneof(fc.string(), fc.integer()),
	),
});

type Report = typeof reportArb extends fc.Arbitrary<infer T> ? T : never;

function fieldsOf(report: Report): Record<string, unknown> {
	return {
		...report.extra,
		[report.idName]: report.id,
		[report.statusName]: report.status[0],
		[report.numberName]: report.number,
	};
}

describe('delivery reports in any plausible shape', () => {
	it('read as the same message id, status, outcome and number', () => {
		fc.assert(
			fc.property(
				fc.array(reportArb, { minLength: 1, maxLength: 5 }),
				fc.array(fc.constantFrom(...WRAPPERS), { maxLength: 3 }),
				fc.constantFrom('object', 'json text', 'form'),
				(reports, wrappers, encoding) => {
					const records = reports.map(fieldsOf);
					let body: unknown = records.length === 1 ? records[0] : records;
					for (const wrapper of wrappers) body = { [wrapper]: body };
					// A form carries one flat report.
					if (encoding === 'form' && records.length === 1 && wrappers.length === 0) {
						body = new URLSearchParams(
							Object.entries(records[0]).map(([k, v]): [string, string] => [k, String(v)]),
						).toString();
					} else if (encoding === 'json text') {
						body = JSON.stringify(body);
					}
					const events = readWebhookEvents(body);
					expect(
						events.map((event) => [event.messageId, event.status, event.outcome, event.number]),
					).toEqual(
						reports.map((report) => [report.id, report.status[0], report.status[1], report.number]),
					);
				},
			),
			{ numRuns: 400 },
		);
	});

	it('any body reads without throwing, as at least one event', () => {
		fc.assert(
			fc.property(fc.oneof(fc.anything(), fc.string(), fc.json()), (body) => {
				const events = readWebhookEvents(body);
				expect(events.length).toBeGreaterThan(0);
			}),
			{ numRuns: 500 },
		);
	});
});

describe('the secret', () => {
	// Secrets as users pick them: a one-letter secret would be found inside ids and dates.
	const secretArb = fc.stringMatching(/^[A-Za-z0-9_.~-]{8,40}$/);

	it('is found where it is presented, never taken from another secret, and never kept in the body', () => {
		fc.assert(
			fc.property(
				secretArb,
				secretArb,
				fc.constantFrom('status_secret', 'secret', 'token'),
				fc.constantFrom('x-status-secret', 'x-webhook-secret', 'authorization'),
				reportArb,
				(secret, other, field, header, report) => {
					fc.pre(other !== secret);
					const body = { ...fieldsOf(report), [field]: secret };
					const headerValue = header === 'authorization' ? `Bearer ${secret}` : secret;
					const ways = [
						{ body, headers: {}, query: {} },
						{ body: fieldsOf(report), headers: { [header]: headerValue }, query: {} },
						{ body: fieldsOf(report), headers: {}, query: { secret } },
					];
					for (const request of ways) {
						expect(carriesSecret(request, secret)).toBe(true);
						expect(carriesSecret(request, other)).toBe(false);
					}
					const kept = withoutSecret(body, secret) as Record<string, unknown>;
					expect(kept).not.toHaveProperty(field);
					for (const value of Object.values(kept)) {
						// The marker itself ("[redacted]") is not the secret showing through.
						if (typeof value === 'string') {
							expect(value.split('[redacted]').join(' ')).not.toContain(secret);
						}
					}
				},
			),
			{ numRuns: 300 },
		);
	});
});
