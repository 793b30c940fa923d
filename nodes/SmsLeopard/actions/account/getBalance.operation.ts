/** Account > Get Balance: what is left to send SMS with, in the account's currency. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ExecutionState } from '../../helpers/execution-state';
import { CONVERTED_BALANCE_NOTE } from '../currency-notes';
import { noteOncePerRun } from '../../helpers/run-notes';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	_itemIndex: number,
	state: ExecutionState,
): Promise<IDataObject> {
	const balance = await state.client.getBalance();
	if (balance.converted_balance !== undefined && balance.converted_balance !== null) {
		noteOncePerRun(this, state, CONVERTED_BALANCE_NOTE);
	}
	return {
		balance: balance.balance,
		currency: balance.currency ?? null,
		convertedBalance: balance.converted_balance ?? null,
		conversionRate: balance.conversion_rate ?? null,
		// Why a figure is null: "balance: the answer gave true, not a number" (answer-values.ts).
		...(balance.notes ? { notes: balance.notes } : {}),
	};
}
