/**
 * An operation's fields are shown only for that operation: said once per file, as n8n's own v2
 * nodes do with `updateDisplayOptions` (n8n-io/n8n, packages/nodes-base/utils/utilities.ts). Ours
 * merges the operation's `show` into each field's own (a field's own keys, such as `variablesMode`
 * or `@version`, are kept), touching top-level fields only: conditions inside a collection refer to
 * its sibling values and stay as written. Not imported from n8n: n8n-workflow does not export it in
 * every version this package supports.
 */
import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

export type Show = NonNullable<IDisplayOptions['show']>;

export function showOnlyFor(show: Show, properties: INodeProperties[]): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...show, ...property.displayOptions?.show },
		},
	}));
}
