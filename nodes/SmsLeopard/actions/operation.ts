/** What every operation file exports, and what the router hands it. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type {
	MediaCategory,
	MediaRecord,
	SenderNumber,
	SmsLeopardClient,
	TemplateDescription,
} from '../client';

export interface ExecutionState {
	client: SmsLeopardClient;
	/** Uploads of this execution by file content and sender: one upload per distinct file. */
	uploads: Map<string, Promise<MediaRecord>>;
	/** Media uploaded in this execution, by media_id, so its type is known when it is sent. */
	mediaCategories: Map<string, MediaCategory>;
	/** Content keys of stored binary files, by binary id. */
	contentKeys: Map<string, Promise<string>>;
	/** Templates of each sender number (by phone_number_id), listed once per execution. */
	templates: Map<string, Promise<Map<string, TemplateDescription> | undefined>>;
	/** Sender numbers checked before an upload (by the value given), once per execution. */
	senderChecks: Map<string, Promise<SenderNumber | undefined>>;
	/** Notices already shown in this execution, so many items give one notice, not one each. */
	noticesGiven: Set<string>;
	/**
	 * Secrets the items put in request bodies (Send SMS's Delivery Report Secret, per item since an
	 * expression can set it), redacted from every output and error like the credential.
	 */
	bodySecrets: Set<string>;
}

export function newExecutionState(client: SmsLeopardClient): ExecutionState {
	return {
		client,
		uploads: new Map(),
		mediaCategories: new Map(),
		contentKeys: new Map(),
		templates: new Map(),
		senderChecks: new Map(),
		noticesGiven: new Set(),
		bodySecrets: new Set(),
	};
}

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
