/** Secrets tests put in on purpose (wrong secrets): they must never come back out either. */
export const TEST_SECRETS = [
	'wrong-secret-do-not-leak-4711',
	'wrong-secret-XYZ',
	'very-secret-value',
	'wrong-secret-must-never-show-9931',
];
