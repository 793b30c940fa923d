/**
 * Include Input Fields: the input item's fields in the output beside the result, so a node after a
 * send still has `{name}` and the rest. On by default from node version 1.2; workflows saved with
 * 1 or 1.1 keep their output as it was (off, and can be turned on).
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** Operations with one output item per input item: the ones whose output can carry its input. */
const resource = ['message', 'media', 'contact', 'deliveryReport'];

const description =
	"Whether to keep the input item's fields in the output, beside the result (the result's fields win where names clash)";

export const includeInputFieldsFields: INodeProperties[] = [
	{
		displayName: 'Include Input Fields',
		name: 'includeInputFields',
		type: 'boolean',
		noDataExpression: true,
		default: false,
		description,
		displayOptions: { show: { resource, '@version': [1, 1.1] } },
	},
	{
		displayName: 'Include Input Fields',
		name: 'includeInputFields',
		type: 'boolean',
		noDataExpression: true,
		default: true,
		description,
		displayOptions: { show: { resource, '@version': [{ _cnd: { gte: 1.2 } }] } },
	},
];

export function withInputFields(input: IDataObject, results: IDataObject[]): IDataObject[] {
	return results.map((result) => ({ ...input, ...result }));
}
