/**
 * The credential's Test button, run by the node's own rules (named by `testedBy` in the node's
 * credentials). A declarative credential test would be sent by n8n without the node's checks, so
 * plain http:// reached any host and redirects were followed with the key and secret. Here the URLs
 * are checked first, nothing is sent when one is refused, and the one request cannot be redirected.
 * Its answer is read like the node's: at most 10 MB, and whole within the test's time bound
 * (credential-check.ts). This module exports only the test: n8n lists its exports as credential tests.
 */
import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { CREDENTIAL_TEST_TIMEOUT_MS, testCredentialWithin } from './credential-check';

/** Lists one group on the contacts host: a wrong key answers 401, a wrong URL fails to connect. */
export async function smsLeopardApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await testCredentialWithin.call(this, credential, CREDENTIAL_TEST_TIMEOUT_MS);
}
