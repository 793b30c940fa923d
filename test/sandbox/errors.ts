// The two error families. Chat host (docs/api.md "Error answers"): {error_code, error_message,
// status_code}. Contacts host: {error, message}, except 401 which is {success:false, message,
// recipients:[]}.
import type { HostName } from './types';

export function errorBody(host: HostName, status: number, code: string, message: string): object {
	if (host === 'chat') return { error_code: code, error_message: message, status_code: status };
	return { error: code, message };
}

export function unauthorizedBody(host: HostName, chatMessage: string): object {
	if (host === 'chat') return errorBody('chat', 401, 'unauthorized', chatMessage);
	// The contacts family's documented shape and message; the variants are "not shown", so one fits
	// all.
	return { success: false, message: 'Invalid API credentials', recipients: [] };
}
