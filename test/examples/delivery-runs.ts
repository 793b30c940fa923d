/**
 * The deliveries' two writers played on the model of n8n's data tables (workflow-model.ts): a
 * batch workflow from its send on, and the trigger workflow from a post's reports, as the
 * SMSLeopard Trigger outputs them.
 */
import { readFileSync } from 'fs';
import * as path from 'path';

import { outcomeOf } from '../../nodes/SmsLeopard/client';
import { type ExampleWorkflow, parseExample } from './campaign-code';
import { type Item, type Tables, execution } from './workflow-model';

export const TRIGGER = parseExample('opt-outs-from-replies.json');
export const RANK: Record<string, number> = {
	accepted: 0,
	pending: 1,
	delivered: 2,
	failed: 2,
	read: 3,
};
/** What each status word of a report sets. */
export const SETS: Record<string, string> = {
	sent: 'pending',
	delivered: 'delivered',
	read: 'read',
	failed: 'failed',
	DELIVRD: 'delivered',
	UNDELIV: 'failed',
};

export interface Report {
	messageId: string;
	word: string;
	reason?: string;
}

export const phoneOf = (index: number) => `+2547120${String(index).padStart(5, '0')}`;

/** A report as the SMSLeopard Trigger outputs it (its outcome from the package's own reading). */
export function triggerItem(report: Report, index: number): Item {
	const sms = report.word === report.word.toUpperCase();
	return {
		json: {
			event: sms ? 'smsDeliveryReport' : 'whatsappStatus',
			messageId: report.messageId,
			status: report.word,
			outcome: outcomeOf(report.word),
			reason: report.reason ?? null,
			time: new Date(Date.parse('2026-11-29T10:00:00Z') + index * 1000).toISOString(),
			number: phoneOf(0).slice(1),
			receivedAt: '2026-11-29T10:00:00.000Z',
		},
	};
}

/** The batch workflow from its send on: the send's summary item, the nodes before it given. */
export function batchRun(file: string | ExampleWorkflow, tables: Tables, messageIds: string[]) {
	const phones = messageIds.map((_, index) => phoneOf(index));
	tables.insert('smsleopard_campaigns', {
		campaign: 'spring',
		batch: '41-1',
		status: 'sending (execution 41)',
		recipients: phones.join(','),
	});
	const takenAt = tables.now();
	return execution(
		typeof file === 'string' ? parseExample(file) : file,
		'Send Campaign Message',
		[
			{
				json: {
					sent: phones.length,
					sentTo: phones,
					messageIds,
					maybeSent: 0,
					maybeSentTo: [],
					notSent: 0,
					notSentTo: [],
					cost: 0.8 * phones.length,
				},
			},
		],
		{
			'Batch Webhook': [{ json: { body: { campaign: 'spring', batch: '41-1' } } }],
			'Take Batch': [{ json: { status: 'sending (execution 41)', updatedAt: takenAt } }],
			'One Item per Recipient': phones.map((phone) => ({ json: { phone } })),
		},
		tables,
	);
}

export const triggerRun = (
	tables: Tables,
	reports: Report[],
	first: number,
	trigger: ExampleWorkflow = TRIGGER,
) =>
	execution(
		trigger,
		'SMSLeopard Trigger',
		reports.map((report, index) => triggerItem(report, first + index)),
		{},
		tables,
	);

/**
 * The deliveries' workflows as shipped before decision 0017 (one look-up per report): a server
 * upgraded mid-campaign, or where only some of the files were imported again, runs old and new
 * side by side on one table.
 */
export const BEFORE_0017 = (file: string): ExampleWorkflow =>
	JSON.parse(
		readFileSync(
			path.join(__dirname, '..', 'fixtures', 'example-workflows', 'before-0017', file),
			'utf8',
		),
	) as ExampleWorkflow;
