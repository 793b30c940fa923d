// What the sandbox posts back, as SMSLeopard would: delivery reports to an SMS send's status_url
// (queued → sent half-way → DELIVRD or UNDELIV after smsDeliveryMs), and WhatsApp events to the
// account's webhook URL (Meta's Cloud API body: statuses of template sends, customer replies).
// The real shapes are not documented (docs/api.md "Callbacks"), so each is switchable:
// `reportShape` flat / wrapped / form, and `reportSecretIn` body / header / query. WhatsApp posts
// are signed as Meta signs them (X-Hub-Signature-256, HMAC-SHA256 of the body with the secret).
import { createHmac } from 'node:crypto';
import type { SmsRecord } from './types';

export type ReportShape = 'flat' | 'wrapped' | 'form';
export type ReportSecretIn = 'body' | 'header' | 'query';
export const REPORT_SHAPES: ReportShape[] = ['flat', 'wrapped', 'form'];
export const REPORT_SECRET_WAYS: ReportSecretIn[] = ['body', 'header', 'query'];

export interface CallbackRecord {
	url: string;
	/** The receiver's HTTP status, or why there was none. */
	status: number | 'unreachable';
	body: string;
}

interface ReportSettings {
	shape: ReportShape;
	secretIn: ReportSecretIn;
	deliveryMs: number;
}

/** Timers and the log of what was posted; reset() cancels what has not gone out yet. */
export class Callbacks {
	readonly log: CallbackRecord[] = [];
	private readonly timers = new Set<NodeJS.Timeout>();

	later(delayMs: number, post: () => Promise<void>): void {
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			void post();
		}, delayMs);
		this.timers.add(timer);
	}

	async post(url: string, body: string, headers: Record<string, string>): Promise<number> {
		let status: CallbackRecord['status'] = 'unreachable';
		try {
			const response = await fetch(url, { method: 'POST', body, headers });
			status = response.status;
			await response.arrayBuffer();
		} catch {
			// The receiver was down: SMSLeopard's retries are not documented; the log says so.
		}
		this.log.push({ url, status, body });
		return typeof status === 'number' ? status : 0;
	}

	cancelAll(): void {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.log.length = 0;
	}
}

function reportFields(record: SmsRecord, status: string, reason: string, atMs: number) {
	return {
		id: record.id,
		status,
		reason,
		time: Math.floor(atMs / 1000),
		number: record.number,
	};
}

/** One post per report (flat, form) or one per request with every recipient (wrapped). */
function reportPosts(
	records: SmsRecord[],
	status: (record: SmsRecord) => { status: string; reason: string },
	secret: string,
	settings: ReportSettings,
	atMs: number,
): Array<{ body: string; headers: Record<string, string>; query: string }> {
	const headers: Record<string, string> =
		settings.secretIn === 'header' ? { 'x-status-secret': secret } : {};
	const query = settings.secretIn === 'query' ? `secret=${encodeURIComponent(secret)}` : '';
	const withSecret = (fields: Record<string, unknown>) =>
		settings.secretIn === 'body' ? { ...fields, status_secret: secret } : fields;
	const fieldsOf = (record: SmsRecord) => {
		const now = status(record);
		return reportFields(record, now.status, now.reason, atMs);
	};
	if (settings.shape === 'wrapped') {
		const data = records.map((record) => {
			const fields = fieldsOf(record);
			return {
				message_id: fields.id,
				delivery_status: fields.status,
				status_description: fields.reason,
				msisdn: fields.number,
				timestamp: new Date(atMs).toISOString(),
			};
		});
		return [
			{
				body: JSON.stringify(withSecret({ event: 'delivery_report', data })),
				headers: { ...headers, 'content-type': 'application/json' },
				query,
			},
		];
	}
	return records.map((record) => {
		const fields = withSecret(fieldsOf(record));
		if (settings.shape === 'form') {
			const form = new URLSearchParams(
				Object.entries(fields).map(([key, value]): [string, string] => [key, String(value)]),
			);
			return {
				body: form.toString(),
				headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
				query,
			};
		}
		return {
			body: JSON.stringify(fields),
			headers: { ...headers, 'content-type': 'application/json' },
			query,
		};
	});
}

function withQuery(url: string, query: string): string {
	if (!query) return url;
	return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/**
 * Reports for the recipients of one send: "sent" half-way, then the final status. `finalStatus`
 * says which (the sandbox's undeliverable numbers end UNDELIV).
 */
export function scheduleSmsReports(
	callbacks: Callbacks,
	records: SmsRecord[],
	statusUrl: string,
	secret: string,
	settings: ReportSettings,
	finalStatus: (record: SmsRecord) => { status: string; reason: string },
): void {
	const stages: Array<[number, (record: SmsRecord) => { status: string; reason: string }]> = [
		[settings.deliveryMs / 2, () => ({ status: 'sent', reason: '' })],
		[settings.deliveryMs, finalStatus],
	];
	for (const [delay, status] of stages) {
		callbacks.later(delay, async () => {
			const posts = reportPosts(records, status, secret, settings, Date.now());
			await Promise.all(
				posts.map(
					async (post) =>
						await callbacks.post(withQuery(statusUrl, post.query), post.body, post.headers),
				),
			);
		});
	}
}

/** A Meta Cloud API webhook post, signed with the secret as Meta signs with the app secret. */
export async function postWhatsAppEvent(
	callbacks: Callbacks,
	url: string,
	secret: string,
	value: Record<string, unknown>,
): Promise<number> {
	const body = JSON.stringify({
		object: 'whatsapp_business_account',
		entry: [{ id: 'sandbox-waba', changes: [{ field: 'messages', value }] }],
	});
	const signature = createHmac('sha256', secret).update(body).digest('hex');
	return await callbacks.post(url, body, {
		'content-type': 'application/json',
		'x-hub-signature-256': `sha256=${signature}`,
	});
}
