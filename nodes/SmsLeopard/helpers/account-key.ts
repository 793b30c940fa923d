/**
 * What names an account in memory kept across executions (helpers/kept-listings.ts): a hash of the
 * credential's key, secret, hosts and channel. Two credentials share kept listings only when all of
 * these are equal, which is the same account reached the same way; an edited credential starts
 * afresh. The secret is never held in clear, and the hash cannot be turned back into it.
 */
import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

const ACCOUNT_FIELDS = ['apiKey', 'apiSecret', 'chatUrl', 'contactsUrl', 'channel'] as const;

export function accountKey(credentials: ICredentialDataDecryptedObject): string {
	const fields = ACCOUNT_FIELDS.map((name) => {
		const value = credentials[name];
		return typeof value === 'string' ? value.trim() : '';
	});
	return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}
