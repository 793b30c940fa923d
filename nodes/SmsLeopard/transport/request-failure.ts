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

/**
 * What n8n's SSRF protection (N8N_SSRF_PROTECTION_ENABLED, n8n 2.12 and later) said when it refused
 * a request before it left: the address it resolved to, or a host name on its deny-list.
 */
export interface SsrfBlock {
	/** 'ip': the host is or resolves to an address in a blocked range; 'hostname': a denied name. */
	by: 'ip' | 'hostname';
	ip?: string;
	hostname?: string;
}

/**
 * n8n's own texts (@n8n/backend-network, ssrf/ssrf-blocked-ip.error and ssrf-blocked-hostname.error;
 * "IP address is blocked" in its first versions), for when the error's name and fields are lost.
 */
const SSRF_IP_TEXTS = [/resolves to a restricted IP address/, /^IP address is blocked$/];
const SSRF_HOSTNAME_TEXT = /destination hostname is restricted/;
/** Its description, which the NodeApiError keeps: "The target 'x' (10.0.0.1) is not allowed". */
const SSRF_TARGET_TEXT = /The target (?:'([^']+)' \(([^)\s]+)\)|(\S+)) is not allowed/;

const textField = (value: unknown): string | undefined =>
	typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The SSRF refusal behind a failed request, if that is what it was. n8n throws SsrfBlockedIpError or
 * SsrfBlockedHostnameError (with `ip` and `hostname`, also in `extra`) and
 * httpRequestWithAuthentication wraps it in a NodeApiError whose `cause` and `messages` keep it.
 */
export function ssrfBlockOf(error: unknown): SsrfBlock | undefined {
	let current: unknown = error;
	let found: SsrfBlock | undefined;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const fields = current as Record<string, unknown>;
		const extra = (fields.extra ?? {}) as Record<string, unknown>;
		const texts = [
			...(Array.isArray(fields.messages) ? fields.messages : []),
			fields.message,
		].filter((text): text is string => typeof text === 'string');
		const by =
			fields.name === 'SsrfBlockedIpError' ||
			texts.some((text) => SSRF_IP_TEXTS.some((pattern) => pattern.test(text)))
				? 'ip'
				: fields.name === 'SsrfBlockedHostnameError' ||
					  texts.some((text) => SSRF_HOSTNAME_TEXT.test(text))
					? 'hostname'
					: undefined;
		if (by) {
			// n8n-workflow 2.8 drops the wrapped error (`cause`, kept by 2.41): its description
			// names the target.
			const target = SSRF_TARGET_TEXT.exec(textField(fields.description) ?? '');
			found = {
				by,
				ip: textField(fields.ip) ?? textField(extra.ip) ?? target?.[2] ?? target?.[3] ?? found?.ip,
				hostname:
					textField(fields.hostname) ?? textField(extra.hostname) ?? target?.[1] ?? found?.hostname,
			};
		}
		current = fields.cause;
	}
	return found;
}

/**
 * The refusal in the user's words: the host, why, and the setting that lets n8n reach it. An address
 * in the URL matches only an IP range (N8N_SSRF_ALLOWED_HOSTNAMES=127.0.0.1 does not allow
 * http://127.0.0.1, tried on n8n 2.41.1); a name matches N8N_SSRF_ALLOWED_HOSTNAMES.
 */
export function describeSsrfBlock(url: string, blocked: SsrfBlock): string {
	const { origin, hostname: urlHost } = new URL(url);
	const host = urlHost.replace(/^\[(.*)\]$/, '$1');
	const isAddress = /^[\d.]+$/.test(host) || host.includes(':');
	const ip = blocked.ip ?? (isAddress ? host : undefined);
	const range = ip ? `${ip}/${ip.includes(':') ? 128 : 32}` : undefined;
	const name = isAddress ? undefined : (blocked.hostname ?? host);
	const why =
		blocked.by === 'hostname'
			? `${name ?? host} is in N8N_SSRF_BLOCKED_HOSTNAMES`
			: ip && name
				? `${name} resolves to ${ip}, in a blocked IP range`
				: `${ip ?? host} is in a blocked IP range`;
	const allow =
		blocked.by === 'hostname' && name
			? `add ${name} to N8N_SSRF_ALLOWED_HOSTNAMES`
			: name && range
				? `add ${name} to N8N_SSRF_ALLOWED_HOSTNAMES or ${range} to N8N_SSRF_ALLOWED_IP_RANGES`
				: range
					? `add ${range} to N8N_SSRF_ALLOWED_IP_RANGES`
					: 'add its address to N8N_SSRF_ALLOWED_IP_RANGES or its host name to N8N_SSRF_ALLOWED_HOSTNAMES';
	return `n8n's SSRF protection blocked the request to ${origin}: ${why}. To let n8n reach it, ${allow} in n8n's environment and restart n8n`;
}
