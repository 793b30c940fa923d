/**
 * An accepted send whose answer does not show the item's own entry with a usable message id
 * (client/http/recipient-pairing.ts): it may well have gone out, so the item is "maybe sent", never
 * offered as safe to send again. One wording for Send SMS and Send Template.
 */
import { type RecipientEntry, SmsLeopardUnconfirmedError } from '../../client';

export function unpairedAnswer(
	/** What was accepted: "the request of item 3 (index 2)". */
	accepted: string,
	number: string,
	/** The entry found for the number, when it lacked only a usable id. */
	entry: RecipientEntry | undefined,
	/** Where to look before sending again. */
	check: string,
): SmsLeopardUnconfirmedError {
	return new SmsLeopardUnconfirmedError(
		`Maybe sent: SMSLeopard accepted ${accepted} but its answer ${
			entry ? 'gives no usable message id for' : 'does not show which entry is'
		} ${number}. It was not sent again; check ${check} before sending this item again`,
		'unpaired_answer',
	);
}
