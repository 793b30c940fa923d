/** What every operation file exports, and what the router hands it. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ExecutionState } from '../helpers/execution-state';

export type { ExecutionState } from '../helpers/execution-state';

/** A run's Dry Run setting: on or off, and the user's price per unit (actions/dry-run.ts reads it). */
export interface DryRun {
	on: boolean;
	/** Per SMS part (Send SMS) or per message (Send Template); undefined when not given. */
	price?: number;
}

/** What a dry run's estimated cost counts: SMS parts or template messages. */
export type DryRunUnit = 'part' | 'message';

/** What became of one input item: its output json(s), or why it failed. */
export type ItemOutcome = { ok: true; results: IDataObject[] } | { ok: false; error: unknown };

/** How the router asks a batch operation to run all items. */
export interface BatchRun {
	itemCount: number;
	/** Requests at a time (the "Items in Parallel" option). */
	concurrency: number;
	/** Without Continue On Fail: start nothing new after a failure. */
	stopOnFailure: boolean;
	/** Check and count every item, send nothing (operations with a `dryRunUnit`). */
	dryRun: DryRun;
}

/**
 * An operation that runs item by item; the router runs the items in its worker pool. One that sends
 * or changes something has a `prepare`: it reads and checks an item without sending anything
 * (reads such as a template listing are allowed), and the router prepares every item before the
 * first is executed, so bad input never leaves a half-sent run. `execute` gets what it prepared.
 */
export interface ItemOperation<Prepared = unknown> {
	description: INodeProperties[];
	/** The parameter naming an item's recipient, for Output = Summary and Problems Only. */
	recipientParameter?: string;
	/** Offers Dry Run, its cost counted per SMS part or per message. */
	dryRunUnit?: DryRunUnit;
	prepare?(this: IExecuteFunctions, itemIndex: number, state: ExecutionState): Promise<Prepared>;
	/** In a dry run, instead of `execute`: what the prepared item would send, sending nothing. */
	preview?(
		this: IExecuteFunctions,
		itemIndex: number,
		prepared: Prepared,
		dryRun: DryRun,
	): IDataObject;
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: ExecutionState,
		prepared: Prepared,
	): Promise<IDataObject | IDataObject[]>;
}

/**
 * An operation that sends many items in one request (SMS): it runs every item at once and answers
 * an outcome per item index (undefined for items never started). The router then outputs them
 * exactly as it does item-by-item outcomes, paired and in input order.
 */
export interface BatchOperation {
	description: INodeProperties[];
	/** The parameter naming an item's recipient, for Output = Summary and Problems Only. */
	recipientParameter?: string;
	dryRunUnit?: DryRunUnit;
	executeBatch(
		this: IExecuteFunctions,
		state: ExecutionState,
		run: BatchRun,
	): Promise<Array<ItemOutcome | undefined>>;
}

export type Operation = ItemOperation | BatchOperation;

export function isBatchOperation(operation: Operation): operation is BatchOperation {
	return typeof (operation as Partial<BatchOperation>).executeBatch === 'function';
}
