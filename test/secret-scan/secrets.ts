/**
 * Delivery Report Secrets (status_secret) the Send SMS tests use while a gateway echoes the request
 * body: they must be redacted like the credential. The second has a quote and a backslash, so it
 * is also looked for as it is written inside a JSON string (how the scan's records hold it).
 */
export const STATUS_SECRETS = ['status-secret-never-echo-5521', 'st"atus\\secret-7734'];

/** Secrets tests put in on purpose (wrong secrets): they must never come back out either. */
export const TEST_SECRETS = [
	'wrong-secret-do-not-leak-4711',
	'wrong-secret-XYZ',
	'very-secret-value',
	'wrong-secret-must-never-show-9931',
	...STATUS_SECRETS,
	...STATUS_SECRETS.map((secret) => JSON.stringify(secret).slice(1, -1)),
];
