/**
 * A number that goes out as text (a template value, a contact attribute, a placeholder of a
 * customized SMS) must read as the number the user meant. JSON's 1e400 and an expression's 1/0
 * are Infinity, which String() writes as "Infinity"; NaN writes "NaN"; an integer beyond
 * 9007199254740991 has already lost digits (an order number 12345678901234567890 would go out as
 * 12345678901234567000). Each is refused with the reason, never sent.
 */
import { z } from 'zod';

/** Why `value` cannot be sent as text, or undefined when String(value) is exactly it. */
export function numberTextProblem(value: number): string | undefined {
	if (Number.isNaN(value)) return 'is NaN (not a number): give a number or a text';
	if (!Number.isFinite(value)) {
		return `is ${value} (a number too large for JSON, such as 1e400): give the value as text`;
	}
	if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
		return `is ${value}, a number with more digits than can be kept exact (beyond 9007199254740991): give it as text in quotes`;
	}
	return undefined;
}

/**
 * A number accepted only while String() of it is exact. No transform here: inside a union, zod
 * drops a refinement's message when a transform follows it, leaving "Invalid input".
 */
export const exactNumber = z.number().superRefine((value, context) => {
	const problem = numberTextProblem(value);
	if (problem) context.addIssue({ code: z.ZodIssueCode.custom, message: problem });
});
