/**
 * What a failed request's error says: its system code, and whether the request surely never left
 * (refused, unresolved, a TCP connect or TLS handshake that failed). For errors n8n wraps (the
 * request) and for plain stream errors (reading the answer) alike.
 */

/** Failures that happen before a request leaves the machine: it surely did not reach the server. */
const NOT_SENT_CODES = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'ERR_INVALID_URL',
	'ERR_BAD_OPTION_VALUE',
	// TLS: the request is written only once the handshake is done.
	'EPROTO',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Node's codes for a server certificate that fails verification (tls docs, "X509 errors"). */
const CERTIFICATE_CODES = new Set([
	'UNABLE_TO_GET_ISSUER_CERT',
	'UNABLE_TO_GET_CRL',
	'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
	'UNABLE_TO_DECRYPT_CRL_SIGNATURE',
	'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
	'CERT_SIGNATURE_FAILURE',
	'CRL_SIGNATURE_FAILURE',
	'CERT_NOT_YET_VALID',
	'CERT_HAS_EXPIRED',
	'CRL_NOT_YET_VALID',
	'CRL_HAS_EXPIRED',
	'ERROR_IN_CERT_NOT_BEFORE_FIELD',
	'ERROR_IN_CERT_NOT_AFTER_FIELD',
	'ERROR_IN_CRL_LAST_UPDATE_FIELD',
	'ERROR_IN_CRL_NEXT_UPDATE_FIELD',
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'CERT_CHAIN_TOO_LONG',
	'CERT_REVOKED',
	'INVALID_CA',
	'PATH_LENGTH_EXCEEDED',
	'INVALID_PURPOSE',
	'CERT_UNTRUSTED',
	'CERT_REJECTED',
	'HOSTNAME_MISMATCH',
]);

/**
 * Texts that place a failure before the request was written, whatever its code: a TCP connect that
 * failed ("connect ETIMEDOUT 10.0.0.1:443"), a TLS handshake the server cut short, an OpenSSL error.
 * A reset during the handshake reads "read ECONNRESET" like one after the request, so it stays
 * "may have been sent".
 */
const NOT_SENT_TEXTS = [
	/^connect E[A-Z]+/,
	/before secure TLS connection was established/i,
	/SSL routines/,
];

const SYSTEM_CODE = /^(E[A-Z0-9_]+|ERR_[A-Z0-9_]+)$/;
const CODE_IN_TEXT = /\b(E[A-Z]{3,}[A-Z0-9_]*|ERR_[A-Z0-9_]+)\b/;

/** axios names its own timeout ECONNABORTED ("timeout of 5000ms exceeded"). */
const named = (code: string): string => (code === 'ECONNABORTED' ? 'ETIMEDOUT' : code);

const isCode = (value: unknown): value is string =>
	typeof value === 'string' && (SYSTEM_CODE.test(value) || CERTIFICATE_CODES.has(value));

/**
 * The system error code behind a failed request, and whether the request surely never left. n8n
 * wraps axios's error in a NodeApiError whose `cause` is lost: the code survives only in `httpCode`
 * (n8n files ECONNREFUSED there) and in the `messages` it kept ("connect ECONNREFUSED 127.0.0.1:1").
 * A plain error carries `code` and `cause`.
 */
export function readFailure(error: unknown): { code: string; requestSent: boolean } {
	let code: string | undefined;
	const texts: string[] = [];
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const fields = current as Record<string, unknown>;
		code ??= [fields.code, fields.httpCode].find(isCode);
		for (const text of [
			...(Array.isArray(fields.messages) ? fields.messages : []),
			fields.message,
		]) {
			if (typeof text === 'string') texts.push(text);
		}
		current = fields.cause;
	}
	code ??= texts.map((text) => CODE_IN_TEXT.exec(text)?.[1]).find(Boolean);
	const found = named(code ?? 'ECONNECTION');
	const notSent =
		NOT_SENT_CODES.has(found) ||
		CERTIFICATE_CODES.has(found) ||
		texts.some((text) => NOT_SENT_TEXTS.some((pattern) => pattern.test(text)));
	return { code: found, requestSent: !notSent };
}
