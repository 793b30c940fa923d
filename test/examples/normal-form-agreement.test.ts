/**
 * The trigger and the campaign agree on who a number is, whatever Default Country Code the trigger
 * has (issue 54). The trigger writes a reply into the opt-out list in the package's normal form
 * (phoneNormalForm, with the country code of its Options); the campaign's Code nodes (they cannot
 * import the package) read that list and the campaign's own with a copy that assumes no country: a
 * national number (0 and 9 digits) is matched by its 9 digits. A copy with a country code of its own
 * (the 254 it once had) sent opted-out people again, without a word, once the trigger's was changed.
 */
import fc from 'fast-check';

import { phoneNormalForm } from '../../nodes/SmsLeopard/client';
import {
	BATCHES,
	CAMPAIGN,
	SMS_FALLBACK,
	csvOf,
	normalFormIn,
	runBatchRecipients,
	runFallbackPeople,
	runPlan,
} from './campaign-code';

const COPIES: Array<[string, string]> = [
	[CAMPAIGN, 'Plan Batches'],
	...BATCHES.map((file): [string, string] => [file, 'Who Gets the Message']),
	[SMS_FALLBACK, 'People to Send'],
	// The deliveries' phone column (docs/deliveries.md): written by the batch and for unknown reports.
	...BATCHES.map((file): [string, string] => [file, 'Delivery Rows']),
	['opt-outs-from-replies.json', 'Delivery Status'],
];

const asWritten = fc
	.tuple(
		fc.constantFrom('', '+', '0', '00', '+254', '254', '00254', '+44 ', '(0)', '+ ', ' +', 'tel:'),
		fc.array(fc.stringMatching(/^\d{1,4}$/), { minLength: 1, maxLength: 5 }),
		fc.constantFrom(' ', '-', '.', '', '/', ')('),
	)
	.map(([prefix, groups, separator]) => `${prefix}${groups.join(separator)}`);
const anyText = fc.oneof(asWritten, fc.stringMatching(/^[0-9+ ()a-z.-]{0,24}$/), fc.string());
/** A Default Country Code someone may set: 1 to 3 digits (Kenya's 254 among them). */
const countryCode = fc.oneof(
	fc.constantFrom('254', '255', '256', '250', '1', '44', '234'),
	fc.stringMatching(/^[1-9]\d{0,2}$/),
);
/** A national number (0 and 9 digits) as people write it, with its 9 digits. */
const nationalNumber = fc
	.tuple(fc.stringMatching(/^[1-9]\d{8}$/), fc.constantFrom(' ', '-', '', '.'))
	.map(([digits, separator]) => ({
		digits,
		written: `0${digits.slice(0, 3)}${separator}${digits.slice(3, 6)}${separator}${digits.slice(6)}`,
	}));
const stop = (phone: string) => ({
	phone,
	status: 'opted out' as const,
	word: 'STOP',
	at: '2026-11-29T10:00:00.000Z',
	source: 'sms',
});

describe.each(COPIES)("the package and %s > %s's copy", (file, node) => {
	const copy = normalFormIn(file, node);

	it('read every number the trigger reads, with any Default Country Code, as the same person (generated)', () => {
		fc.assert(
			fc.property(anyText, countryCode, (written, code) => {
				const trigger = phoneNormalForm(written, code);
				if (trigger === null) return;
				const mine = copy(written);
				// The same international number, or the national one whose 9 digits it ends in.
				const same = mine === trigger || (/^0\d{9}$/.test(mine) && trigger.endsWith(mine.slice(1)));
				expect({ written, code, trigger, mine, same }).toEqual({
					written,
					code,
					trigger,
					mine,
					same: true,
				});
			}),
			{ numRuns: 3000 },
		);
	});
});

describe("an opted-out reply from a national number, whatever the trigger's Default Country Code", () => {
	const people = (written: string) => [
		{ phone: written, name: 'Opted out' },
		{ phone: '+254700000001', name: 'Other' },
	];

	it('is skipped by the campaign, each batch and the SMS fallback, the list writing it nationally or in full (generated)', () => {
		fc.assert(
			fc.property(nationalNumber, countryCode, fc.boolean(), ({ digits, written }, code, full) => {
				// What the trigger wrote into smsleopard_opt_outs for a STOP from that national number.
				const row = stop(phoneNormalForm(written, code)!);
				const listed = full ? `+${code}${digits}` : written;
				const plan = runPlan({ recipients: [csvOf(people(listed))], optOuts: [row] });
				expect(plan[plan.length - 1].json).toMatchObject({ optedOut: 1, queuedNow: 1 });
				for (const batch of BATCHES)
					expect(runBatchRecipients(batch, [listed], [row])[0].json).toEqual({
						everyoneOptedOut: true,
						optedOut: 1,
					});
				const fallback = runFallbackPeople([{ id: 1, phone: listed }], [row]);
				expect(fallback.map((item) => item.json)).toEqual([
					{ nobody: true, optOutListUnread: false },
				]);
			}),
			{ numRuns: 300 },
		);
	});

	it('two international numbers of different countries are never one person', () => {
		const plan = runPlan({
			recipients: [csvOf(people('+255712345678'))],
			optOuts: [stop('+254712345678')],
		});
		expect(plan[plan.length - 1].json).toMatchObject({ optedOut: 0, queuedNow: 2 });
	});
});
