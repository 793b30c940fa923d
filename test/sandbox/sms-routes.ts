// SMS on the contacts host: send, delivery reports, balance. Each recipient's status moves with time
// from queued to sent to DELIVRD (or UNDELIV for the numbers SMS_UNDELIVERABLE_SUFFIX marks), after
// the `smsDeliveryMs` knob, so a delivery report read twice can change.
import { randomUUID } from 'node:crypto';
import { scheduleSmsReports } from './callbacks';
import type { SandboxContext } from './context';
import { readJson } from './json-body';
import { shapeSendAnswer } from './send-answers';
import { SMS_COST_PER_PART, SMS_CURRENCY, SMS_USD_RATE, SMS_UNDELIVERABLE_SUFFIX } from './seed';
import type { Exchange } from './server';
import { smsParts } from './sms-parts';
import { validateSmsSend } from './sms-rules';
import type { SmsRecord } from './types';

const round2 = (value: number) => Math.round(value * 100) / 100;

async function handleSend(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const body = await readJson(ex);
	if (!body.ok) return ex.fail(body.problem);
	ex.record.body = body.value;
	const input = validateSmsSend(body.value);
	if (!input.ok) return ex.fail(input.problem);
	const at = Date.now();
	const records: SmsRecord[] = input.value.destinations.map((destination) => {
		const parts = smsParts(destination.message);
		return {
			id: randomUUID(),
			number: destination.number,
			source: input.value.source,
			message: destination.message,
			parts,
			cost: round2(parts * SMS_COST_PER_PART),
			statusUrl: input.value.statusUrl,
			statusSecret: input.value.statusSecret,
			at,
		};
	});
	ctx.state.smsMessages.push(...records);
	const { statusUrl, statusSecret } = input.value;
	if (statusUrl && statusSecret) {
		const deliveryMs = ctx.options.smsDeliveryMs;
		scheduleSmsReports(
			ctx.callbacks,
			records,
			statusUrl,
			statusSecret,
			{ shape: ctx.options.reportShape, secretIn: ctx.options.reportSecretIn, deliveryMs },
			(record) => smsStatus(record, deliveryMs, record.at + deliveryMs),
		);
	}
	const total = round2(records.reduce((sum, record) => sum + record.cost, 0));
	ctx.state.smsBalance = round2(ctx.state.smsBalance - total);
	return ex.reply(201, {
		success: true,
		message: `Sent to ${records.length}/${records.length}. Cost ${SMS_CURRENCY} ${total.toFixed(2)}`,
		recipients: shapeSendAnswer(
			records.map((record) => ({
				id: record.id,
				cost: record.cost,
				number: record.number,
				status: 'queued',
			})),
			ctx.options.sendAnswers,
		),
	});
}

/** Where a message stands `now`: queued, then sent, then delivered or not. */
export function smsStatus(
	record: SmsRecord,
	deliveryMs: number,
	now: number,
): { status: string; reason: string; time: number } {
	const elapsed = now - record.at;
	const seconds = (ms: number) => Math.floor((record.at + ms) / 1000);
	if (elapsed >= deliveryMs) {
		const failed = record.number.endsWith(SMS_UNDELIVERABLE_SUFFIX);
		return failed
			? { status: 'UNDELIV', reason: 'Absent subscriber', time: seconds(deliveryMs) }
			: { status: 'DELIVRD', reason: '', time: seconds(deliveryMs) };
	}
	if (elapsed >= deliveryMs / 2)
		return { status: 'sent', reason: '', time: seconds(deliveryMs / 2) };
	return { status: 'queued', reason: '', time: seconds(0) };
}

async function handleDeliveryReport(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const id = decodeURIComponent(ex.params[0]);
	if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
		const message = `'${id}' is not a message id: use the id of a recipient from the send answer`;
		return ex.fail({ status: 400, code: 'bad_request', message });
	}
	const record = ctx.state.smsMessages.find((m) => m.id === id.toLowerCase());
	if (!record) {
		return ex.fail({ status: 404, code: 'not_found', message: `No message with id ${id}` });
	}
	// The documentation shows 201 for this read; the sandbox answers what is documented.
	return ex.reply(201, {
		id: record.id,
		...smsStatus(record, ctx.options.smsDeliveryMs, Date.now()),
	});
}

async function handleBalance(ex: Exchange, ctx: SandboxContext): Promise<void> {
	const balance = ctx.state.smsBalance;
	return ex.reply(200, {
		balance,
		conversion_rate: SMS_USD_RATE,
		converted_balance: round2(balance * SMS_USD_RATE),
		currency: SMS_CURRENCY,
	});
}

export const smsRoutes = [
	{ pattern: /^\/v1\/sms\/send$/, methods: { POST: handleSend } },
	{ pattern: /^\/v1\/delivery_reports\/([^/]+)$/, methods: { GET: handleDeliveryReport } },
	{ pattern: /^\/v1\/balance$/, methods: { GET: handleBalance } },
];
