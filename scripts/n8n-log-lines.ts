/**
 * n8n's output as whole lines, each handed on with a prefix: `npm start` prints n8n's warnings
 * (a refused trigger post, a workflow that failed to activate) in its own terminal as they come.
 */
export function n8nLogLines(
	print: (line: string) => void,
	prefix = 'n8n | ',
): (chunk: string) => void {
	let pending = '';
	return (chunk) => {
		const lines = (pending + chunk).split(/\r?\n/);
		// The last piece has no line end yet: kept for the next chunk.
		pending = lines.pop() ?? '';
		for (const line of lines) if (line.trim() !== '') print(`${prefix}${line}`);
	};
}
