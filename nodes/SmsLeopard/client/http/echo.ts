/**
 * Bounds on what an error repeats back. An error built from a megabyte of input must not be larger
 * than the input (n8n keeps every error in the execution data and shows it in the editor), so a
 * value quoted in a message is cut short, and a list of problems stops after the first few.
 */

/** How much of a value a message quotes. */
export const ECHO_MAX_CHARS = 100;
/** How many problems one error lists before saying how many more there are. */
export const MAX_LISTED_PROBLEMS = 20;
/** A safety cap on one problem's text, whatever built it. */
const MAX_PROBLEM_CHARS = 500;

/** The value as text, cut to `max` characters with the full length said, for quoting in messages. */
export function echo(value: unknown, max = ECHO_MAX_CHARS): string {
	const text = String(value);
	if (text.length <= max) return text;
	return `${text.slice(0, max)}… (${text.length} characters)`;
}

/** One problem's text, capped. */
export function capProblem(text: string): string {
	return echo(text, MAX_PROBLEM_CHARS);
}

/** The first problems and, when some were left out, how many. */
export function listProblems(problems: string[], total = problems.length): string {
	const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map(capProblem);
	const more = total - listed.length;
	return listed.join('; ') + (more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : '');
}
