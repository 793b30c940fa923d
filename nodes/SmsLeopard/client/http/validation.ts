/** Runs a zod schema over caller input and turns its complaints into a field-named error. */
import type { ZodError, ZodType, ZodTypeDef } from 'zod';
import { type FieldIssue, SmsLeopardValidationError } from './errors';

export function pathToField(prefix: string, path: Array<string | number>): string {
	let field = prefix;
	for (const part of path) {
		field += typeof part === 'number' ? `[${part}]` : field === '' ? part : `.${part}`;
	}
	return field;
}

export function issuesOf(error: ZodError, prefix = ''): FieldIssue[] {
	return error.issues.map((issue) => ({
		field: pathToField(prefix, issue.path),
		message: issue.message,
	}));
}

export function validateInput<Output, Input>(
	schema: ZodType<Output, ZodTypeDef, Input>,
	input: unknown,
	prefix = '',
): Output {
	const result = schema.safeParse(input);
	if (!result.success) throw new SmsLeopardValidationError(issuesOf(result.error, prefix));
	return result.data;
}
