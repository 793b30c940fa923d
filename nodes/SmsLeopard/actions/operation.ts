/** What every operation file exports, and what the router hands it. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { MediaCategory, MediaRecord, SmsLeopardClient, TemplateDescription } from '../client';

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
}

export function newExecutionState(client: SmsLeopardClient): ExecutionState {
	return {
		client,
		uploads: new Map(),
		mediaCategories: new Map(),
		contentKeys: new Map(),
		templates: new Map(),
	};
}

export interface Operation {
	description: INodeProperties[];
	execute(
		this: IExecuteFunctions,
		itemIndex: number,
		state: ExecutionState,
	): Promise<IDataObject | IDataObject[]>;
}
