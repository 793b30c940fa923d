/** Sender Number > Get Many: the account's WhatsApp sender numbers with their phone_number_id. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { toJson } from '../../helpers/output';
import type { ExecutionState } from '../../helpers/execution-state';

export const description: INodeProperties[] = [];

export async function execute(
	this: IExecuteFunctions,
	_itemIndex: number,
	state: ExecutionState,
): Promise<IDataObject[]> {
	const senders = await state.client.listSenderNumbers();
	return senders.map(toJson);
}
