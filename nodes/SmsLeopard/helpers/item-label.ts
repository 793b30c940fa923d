/**
 * How every message names items. n8n's editor counts rows from 1 while its error panel and its own
 * messages say "Item Index: 0" / "[item 0]": both are given, so neither reading is wrong.
 */
export function itemLabel(itemIndex: number): string {
	return `item ${itemIndex + 1} (index ${itemIndex})`;
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

/** "items 4-8, 10 (indexes 3-7, 9)"; beyond `max` indexes, the rest is counted. */
export function itemsLabel(indexes: number[], max = Infinity): string {
	if (indexes.length === 1) return itemLabel(indexes[0]);
	const shown = indexes.slice(0, max);
	const more = indexes.length - shown.length;
	return `items ${ranges(shown, 1)} (indexes ${ranges(shown, 0)})${more > 0 ? ` and ${more} more` : ''}`;
}
