/**
 * Checking many SMS sends, the fields they share checked once (smsChecker), tells every send
 * exactly what checking it alone tells it (checkSendSms): the same checked send or the same
 * field-named problems, for any run of good and bad sends in any order.
 */
import fc from 'fast-check';

import {
	type SendSmsRequest,
	checkSendSms,
	smsChecker,
} from '../../nodes/SmsLeopard/client/sms/sms';
import { settleNow } from '../../nodes/SmsLeopard/client/http/settle';

/** What a check tells a send: its result, or its error's message and field issues. */
function told(check: (request: SendSmsRequest) => unknown, request: SendSmsRequest) {
	const outcome = settleNow(() => check(request));
	if (outcome.ok) return { ok: outcome.value };
	const error = outcome.error as Error & { issues?: unknown };
	return { error: error.message, issues: error.issues };
}

/** Mostly the good values, now and then a bad one: most sends pass, some fail on one field. */
const mostly = (good: unknown[], bad: unknown[]) =>
	fc.oneof(
		{ arbitrary: fc.constantFrom(...good), weight: 8 },
		{ arbitrary: fc.constantFrom(...bad), weight: 1 },
	);
// Few values each, so sends share their fields often and differ in them too.
const source = mostly(['SMS_Leopard', ' SMS_Leopard ', 'Other'], ['', 42, undefined]);
const message = mostly(
	['Flash sale today', 'Caf\u00e9 \u{1F600}', 'x'.repeat(200)],
	['  ', undefined],
);
const multi = mostly([undefined], [false, true]);
const statusUrl = mostly(
	[undefined, 'https://n8n.example.com/webhook/sms'],
	['http://n8n.example.com/webhook/sms', 'not a url'],
);
const statusSecret = mostly([undefined, 's3cret-value'], ['']);
const maxParts = mostly([undefined, 2], [1, 0, 1.5, '1']);
const recipient = fc.record(
	{
		number: mostly(
			['+254700000001', '0712345678', ' 254700000002 ', '(0712) 345-678'],
			['12', '', ' ', 7, undefined, '+2547000000019999', '0712345678x'],
		),
		message: mostly([undefined], ['Hi Ann', 'y'.repeat(170), '', '  ', 5]),
		note: mostly([undefined], ['an extra field']),
	},
	{ requiredKeys: ['number'] },
);
/** Now and then a recipient that is not a record at all. */
const anyRecipient = fc.oneof(
	{ arbitrary: recipient, weight: 12 },
	{ arbitrary: fc.constantFrom<unknown>(null, '+254700000001', ['+254700000001']), weight: 1 },
);
const send = fc.record(
	{
		source,
		message,
		multi,
		statusUrl,
		statusSecret,
		maxParts,
		recipients: fc.oneof(
			{ arbitrary: fc.array(anyRecipient, { minLength: 1, maxLength: 3 }), weight: 8 },
			{ arbitrary: fc.constantFrom<unknown>([], 'not a list'), weight: 1 },
		),
	},
	{ requiredKeys: ['recipients'] },
) as fc.Arbitrary<SendSmsRequest>;

describe('SMS sends checked together', () => {
	it('tell each send what checking it alone tells it (property)', () => {
		let passed = 0;
		fc.assert(
			fc.property(fc.array(send, { minLength: 1, maxLength: 30 }), (sends) => {
				const check = smsChecker();
				for (const request of sends) {
					const alone = told(checkSendSms, request);
					expect(told(check, request)).toEqual(alone);
					if ('ok' in alone) passed++;
				}
			}),
			{ numRuns: 400 },
		);
		// Sends that passed, after others with the same shared fields: the case checked once.
		expect(passed).toBeGreaterThan(50);
	});

	it('a send after a good one with the same fields is still refused for its own number', () => {
		const check = smsChecker();
		const request = (number: string): SendSmsRequest => ({
			source: 'SMS_Leopard',
			message: 'Flash sale today',
			recipients: [{ number }],
		});
		expect(told(check, request('+254700000001'))).toHaveProperty('ok');
		expect(told(check, request('12'))).toEqual(told(checkSendSms, request('12')));
		expect(told(check, request('12')).issues).toEqual([
			{
				field: 'recipients[0].number',
				message: expect.stringContaining('not a valid phone number'),
			},
		]);
	});
});
