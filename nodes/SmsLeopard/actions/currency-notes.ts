/**
 * Money figures whose currency SMSLeopard does not name (docs/api.md "Send answer" and "Balance"):
 * the output keeps them as the service gave them and says so once per run, above the items
 * (helpers/run-notes.ts), rather than guessing a currency code.
 */
export const TEMPLATE_COST_CURRENCY_NOTE =
	"The cost is in your account's currency: SMSLeopard's WhatsApp answer does not name it (Account > Get Balance shows your account's currency).";

export const CONVERTED_BALANCE_NOTE =
	'convertedBalance is balance × conversionRate: SMSLeopard does not say into which currency it converts.';
