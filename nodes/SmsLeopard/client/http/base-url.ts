/**
 * The credential's base URLs, checked the same way for runs and for the credential's Test button:
 * https:// always, plain http:// only on loopback hosts (the local sandbox), so a typo can never send
 * the API key and secret unencrypted.
 */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string): boolean {
	return LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

export type BaseUrlCheck =
	{ ok: true; url: string } | { ok: false; message: string; description?: string };

export function readBaseUrl(label: string, value: unknown, fallback: string): BaseUrlCheck {
	const text = typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return {
			ok: false,
			message: `The credential's ${label} is not a URL`,
			description: `Open the SMSLeopard credential and set ${label} to a URL such as ${fallback}`,
		};
	}
	if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
		return {
			ok: false,
			message: `The credential's ${label} uses plain http://`,
			description: `Plain http:// would send the API key and secret unencrypted. Use https:// (http:// is accepted only for localhost, such as the local sandbox).`,
		};
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return { ok: false, message: `The credential's ${label} must start with https://` };
	}
	return { ok: true, url: text };
}
