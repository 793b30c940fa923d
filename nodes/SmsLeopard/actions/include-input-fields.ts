/**
 * Include Input Fields: the input item's fields in the output beside the result, so a node after a
 * send still has `{name}` and the rest. On by default from node version 1.2; workflows saved with
 * 1 or 1.1 keep their output as it was (off, and can be turned on).
 *
 * Nothing is lost and nothing contradicts: the result keeps its own names, and an input field the
 * result would replace (the SMS's `messageId` before a WhatsApp send, a report's `outcome`) is kept
 * under `input`, so a row never shows one send's id or status beside another's.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

/** Operations with one output item per input item: the ones whose output can carry its input. */
const resource = ['message', 'media', 'contact', 'deliveryReport'];

const description =
	'Whether to keep the input item\'s fields in the output, beside the result. An input field with the name of a result field (such as messageId) is kept under "input".';

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

/** Where clashing input fields go: `input`, unless the input or the result has that name too. */
function keyForReplaced(input: IDataObject, result: IDataObject): string {
	let key = 'input';
	while (key in input || key in result) key = `_${key}`;
	return key;
}

/** The input fields a run moved, by the key they were moved under: for the run's note. */
export type MovedInputFields = Map<string, Set<string>>;

export function withInputFields(
	input: IDataObject,
	results: IDataObject[],
	moved?: MovedInputFields,
): IDataObject[] {
	return results.map((result) => {
		// One pass over the input: each field is kept beside the result or, if replaced, under `input`.
		const kept: IDataObject = {};
		const beside: IDataObject = {};
		for (const [name, value] of Object.entries(input)) {
			if (Object.hasOwn(result, name)) kept[name] = value;
			else beside[name] = value;
		}
		if (Object.keys(kept).length === 0) return { ...input, ...result };
		const key = keyForReplaced(input, result);
		const names = moved?.get(key) ?? new Set<string>();
		for (const name of Object.keys(kept)) names.add(name);
		moved?.set(key, names);
		return { ...beside, ...result, [key]: kept };
	});
}

/**
 * The note above the output when input fields were moved: `$json.status` after this node is the
 * result's, and a workflow that read the input's own must now read it under `input`.
 */
export function movedFieldsNote(moved: MovedInputFields): string | undefined {
	if (moved.size === 0) return undefined;
	const parts = [...moved].map(([key, names]) => {
		const list = [...names].sort();
		const shown = list.slice(0, 5).map((name) => `${name} (now ${key}.${name})`);
		const more = list.length > 5 ? ` and ${list.length - 5} more` : '';
		return `${shown.join(', ')}${more}`;
	});
	const sample = [...[...moved][0][1]].sort()[0];
	return `Include Input Fields: input fields with the name of a result field were moved under "${[...moved.keys()].join('", "')}": ${parts.join('; ')}. After this node, $json.${sample} is the result's; read the input's as $json.${[...moved.keys()][0]}.${sample}, or turn Include Input Fields off.`;
}
