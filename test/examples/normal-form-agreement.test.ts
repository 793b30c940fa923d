/**
 * One normal form of a number in three places (issue 54): the package's phoneNormalForm, which the
 * trigger writes into the opt-out list as `fromNormal`, and the copies the campaign's Code nodes
 * carry (they cannot import the package) to compare the list with the campaign's own list. If they
 * disagreed on any written number, a person who opted out would be sent. Generated texts: numbers as
 * people write them in any country, and any text of digits, signs and letters.
 */
import fc from 'fast-check';

import { phoneNormalForm } from '../../nodes/SmsLeopard/client';
import { BATCHES, CAMPAIGN, normalFormIn } from './campaign-code';

const COPIES: Array<[string, string]> = [
	[CAMPAIGN, 'Plan Batches'],
	...BATCHES.map((file): [string, string] => [file, 'One Item per Recipient']),
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

describe.each(COPIES)("the package and %s > %s's copy", (file, node) => {
	const copy = normalFormIn(file, node);

	it('write every number in the same normal form, and both refuse the same non-numbers', () => {
		fc.assert(
			fc.property(anyText, (written) => {
				// The copy writes '' where the package says null: not a number, to either.
				expect([written, copy(written)]).toEqual([written, phoneNormalForm(written) ?? '']);
			}),
			{ numRuns: 3000 },
		);
	});
});
