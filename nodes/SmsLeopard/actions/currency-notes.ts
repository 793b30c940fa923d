/**
 * Money figures whose currency SMSLeopard does not name (docs/api.md "Send answer" and "Balance"):
 * the output keeps them as the service gave them and says so once per run, above the items, rather
 * than guessing a currency code.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import type { ExecutionState } from '../helpers/execution-state';

export const TEMPLATE_COST_CURRENCY_NOTE =
	"The cost is in your account's currency: SMSLeopard's WhatsApp answer does not name it, so currency is null (Account > Get Balance shows your account's currency).";

export const CONVERTED_BALANCE_NOTE =
	'convertedBalance is balance × conversionRate: SMSLeopard does not say into which currency it converts.';

export function noteOncePerRun(
	context: IExecuteFunctions,
	state: ExecutionState,
	message: string,
): void {
	if (state.noticesGiven.has(message)) return;
	state.noticesGiven.add(message);
	context.addExecutionHints({ message, type: 'info', location: 'outputPane' });
}
