/**
 * How every message names items: as n8n's editor counts its rows, "item 1" for the first. One
 * numbering only: "item 2 (index 1)" beside n8n's own "[item 1]" read as two different items.
 */
export function itemLabel(itemIndex: number): string {
	return `item ${itemIndex + 1}`;
}

/** Consecutive indexes as ranges: "3-7, 9" (shifted by `base`). */
function ranges(indexes: number[], base: number): string {
	const parts: string[] = [];
	for (let i = 0; i < indexes.length; i++) {
		const start = indexes[i];
		while (i + 1 < indexes.length && indexes[i + 1] === indexes[i] + 1) i++;
		parts.push(start === indexes[i] ? `${start + base}` : `${start + base}-${indexes[i] + base}`);
	}
	return parts.join(', ');
}

/** "items 4-8, 10" for the indexes 3-7 and 9; beyond `max` items, the rest is counted. */
export function itemsLabel(indexes: number[], max = Infinity): string {
	if (indexes.length === 1) return itemLabel(indexes[0]);
	const shown = indexes.slice(0, max);
	const more = indexes.length - shown.length;
	return `items ${ranges(shown, 1)}${more > 0 ? ` and ${more} more` : ''}`;
}
