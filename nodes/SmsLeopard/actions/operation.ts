/** What every operation file exports, and what the router hands it. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ExecutionState } from '../helpers/execution-state';

export type { ExecutionState } from '../helpers/execution-state';

/** What became of one input item: its output json(s), or why it failed. */
export type ItemOutcome = { ok: true; results: IDataObject[] } | { ok: false; error: unknown };

/** How the router asks a batch operation to run all items. */
export interface BatchRun {
	itemCount: number;
	/** Requests at a time (the "Items in Parallel" option). */
	concurrency: number;
	/** Without Continue On Fail: start nothing new after a failure. */
	stopOnFailure: boolean;
}

export interface Operation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: ExecutionState,
	): Promise<IDataObject | IDataObject[]>;
	/**
	 * For operations that send many items in one request (SMS): runs every item at once and answers
	 * an outcome per item index (undefined for items never started). The router then outputs them
	 * exactly as it does item-by-item outcomes, paired and in input order.
	 */
	executeBatch?(
		this: IExecuteFunctions,
		state: ExecutionState,
		run: BatchRun,
	): Promise<Array<ItemOutcome | undefined>>;
}
