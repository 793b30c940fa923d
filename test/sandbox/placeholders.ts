// Placeholders are `{{n}}` with n >= 1, in template header text, body and button urls.

/** The distinct placeholder numbers of a text, ascending. */
export function placeholdersOf(text: string | undefined): number[] {
	if (!text) return [];
	const found = new Set<number>();
	for (const m of text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)) found.add(Number(m[1]));
	return [...found].sort((a, b) => a - b);
}

export function listPlaceholders(numbers: number[]): string {
	return numbers.length === 0 ? 'none' : numbers.map((n) => `{{${n}}}`).join(', ');
}
