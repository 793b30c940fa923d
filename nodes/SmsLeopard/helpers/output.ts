import type { IDataObject } from 'n8n-workflow';

/** API records are plain JSON objects already; n8n's IDataObject type just cannot see that. */
export function toJson(record: object): IDataObject {
	return { ...record } as IDataObject;
}
