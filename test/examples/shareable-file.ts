import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox';

/**
 * What every shipped example must not hold, as exported text and parsed: the sandbox's key or
 * secret, a server address, credential fields, or the id of the workflow it was exported from.
 */
export function expectShareable(text: string, workflow: { id?: unknown }): void {
	expect(text).not.toContain(SANDBOX_API_KEY);
	expect(text).not.toContain(SANDBOX_API_SECRET);
	expect(text).not.toMatch(/localhost|127\.0\.0\.1|\bhttps?:\/\//);
	expect(text).not.toMatch(/"(apiKey|apiSecret|instanceId)"/);
	expect(workflow.id).toBeUndefined();
}
