/** What every operation file exports, and what the router hands it. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { MediaRecord, SmsLeopardClient } from '../client';

export interface ExecutionState {
	client: SmsLeopardClient;
	/** Uploads of this execution by file content and sender: one upload per distinct file. */
	uploads: Map<string, Promise<MediaRecord>>;
}

export interface Operation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: ExecutionState,
	): Promise<IDataObject | IDataObject[]>;
}
