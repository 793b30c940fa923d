/**
 * Customized SMS texts: `{name}` or `{order.id}` in the message is replaced by that field of the
 * item, so one pattern gives each recipient their own text. A placeholder without a value is an
 * error naming it: sending "Dear {name}" to a customer is worse than not sending.
 */
import { SmsLeopardValidationError } from '../client';

const PLACEHOLDER = /\{([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\}/g;

function valueAt(json: Record<string, unknown>, path: string): unknown {
	let value: unknown = json;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

export function fillPlaceholders(pattern: string, json: Record<string, unknown>): string {
	const missing: string[] = [];
	const text = pattern.replace(PLACEHOLDER, (whole, path: string) => {
		const value = valueAt(json, path);
		if (value === undefined || value === null || typeof value === 'object') {
			missing.push(whole);
			return whole;
		}
		return String(value);
	});
	if (missing.length) {
		throw new SmsLeopardValidationError([
			{
				field: 'message',
				message: `has placeholder(s) ${missing.join(', ')} that the item has no text or number for: add the field(s) to the item or correct the placeholder`,
			},
		]);
	}
	return text;
}
