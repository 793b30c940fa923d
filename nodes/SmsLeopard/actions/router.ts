/**
 * Runs the chosen operation for every input item. Each output item is paired with its input item.
 * A failing item either becomes an error item (Continue On Fail) or stops the run with an error that
 * says which items already went out, so a rerun can skip them.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { errorItemJson, toNodeError } from '../helpers/node-errors';
import { clientForNode } from '../transport/client-for-node';
import { type ExecutionState, newExecutionState } from './operation';
import { resources } from './resources';

function summariseDone(done: Array<{ itemIndex: number; json: IDataObject }>): string | undefined {
	if (done.length === 0) return 'No item had been processed before this one.';
	const ids = done
		.map(({ itemIndex, json }) =>
			json.messageId ? `item ${itemIndex}: ${String(json.messageId)}` : `item ${itemIndex}`,
		)
		.join(', ');
	return `${done.length} item(s) had already succeeded before this failure and were not rolled back: ${ids}.`;
}

export async function route(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const handler = resources[resource]?.[operation];
	if (!handler) {
		throw toNodeError(
			this.getNode(),
			new Error(`The operation "${operation}" of "${resource}" is not supported`),
			0,
		);
	}
	const state: ExecutionState = newExecutionState(await clientForNode(this));
	const output: INodeExecutionData[] = [];
	const done: Array<{ itemIndex: number; json: IDataObject }> = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const result = await handler.execute.call(this, itemIndex, state);
			const results = Array.isArray(result) ? result : [result];
			for (const json of results) done.push({ itemIndex, json });
			output.push(
				...this.helpers.constructExecutionMetaData(this.helpers.returnJsonArray(results), {
					itemData: { item: itemIndex },
				}),
			);
		} catch (error) {
			if (this.continueOnFail()) {
				output.push({ json: errorItemJson(error), pairedItem: { item: itemIndex } });
				continue;
			}
			throw toNodeError(
				this.getNode(),
				error,
				itemIndex,
				resource === 'message' ? summariseDone(done) : undefined,
			);
		}
	}
	return [output];
}
