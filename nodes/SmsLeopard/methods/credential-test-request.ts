/**
 * The one HTTP helper n8n gives a credential test, taken openly so n8n's own lint sees it.
 *
 * n8n's rule `@n8n/community-nodes/no-deprecated-workflow-functions` flags `this.helpers.request`
 * and suggests `httpRequest`, which a credential test is not given: ICredentialTestFunctions offers
 * `request` alone (n8n-workflow 1.123 to 2.41). The rule is disabled for that one line, with this
 * reason; the day an n8n drops the helper, the Test says so (credential-check.ts) and the e2e matrix
 * fails naming what changed (test/e2e/credential-test.e2e.test.ts).
 *
 * The project's own eslint (8) does not load n8n's community rules, so it would refuse the disable
 * comment as an unknown rule: .eslintrc.js leaves this file to `npm run lint:n8n` alone.
 */
import type { ICredentialTestFunctions } from 'n8n-workflow';

export type CredentialTestRequest = ICredentialTestFunctions['helpers']['request'];

/** n8n's `request` helper for a credential test, or undefined when this n8n gives none. */
export function credentialTestRequest(
	this: ICredentialTestFunctions,
): CredentialTestRequest | undefined {
	// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions -- a credential test has no other HTTP helper (see above)
	const request: CredentialTestRequest | undefined = this.helpers.request;
	return typeof request === 'function' ? request : undefined;
}
