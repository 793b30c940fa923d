/**
 * examples/campaign-sms-fallback.json as a marketer imports it (credential by name, no secret or
 * address, notes saying what to change), and the rules that make it send each failed person once:
 * only rows of the campaign whose WhatsApp message failed are claimed, only where `fallback` is free
 * (empty, or "not sent"), the run sends only the rows it reads back with its own claim, and it writes
 * the outcome only into rows that still hold that claim. Its behaviour in real n8n, two runs at once:
 * test/e2e/sms-fallback.e2e.test.ts.
 */
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { EXAMPLE_CREDENTIAL_NAME } from '../e2e/workflows/examples';
import { CAMPAIGN_FORM_CREDENTIAL } from '../queue/campaign/campaign-kit';
import {
	SMS_FALLBACK,
	byName,
	parseExample,
	readExample,
	runExampleCode,
	runFallbackPeople,
} from './campaign-code';
import { expectShareable } from './shareable-file';

const workflow = parseExample(SMS_FALLBACK);
const notes = workflow.nodes
	.filter((entry) => entry.type === 'n8n-nodes-base.stickyNote')
	.map((entry) => String(entry.parameters.content))
	.join('\n');
const knownParameters = new Set(new SmsLeopard().description.properties.map((entry) => entry.name));
const next = (name: string, output = 0) =>
	(workflow.connections[name]?.main[output] ?? []).map((link) => link.node);
const CLAIM = "={{ $('Check Settings').first().json.claim }}";
const CAMPAIGN_IS = {
	keyName: 'campaign',
	condition: 'eq',
	keyValue: "={{ $('Check Settings').first().json.campaign }}",
};
const out = (phone: string) => ({
	phone,
	status: 'opted out' as const,
	word: 'STOP',
	at: '2026-11-29T10:00:00.000Z',
	source: 'sms',
});

describe('examples/campaign-sms-fallback.json', () => {
	it('holds no secret, no address, no workflow id; its notes say what to change and name both credentials', () => {
		expectShareable(readExample(SMS_FALLBACK), workflow);
		expect(notes).toContain('What to change');
		expect(notes).toContain(EXAMPLE_CREDENTIAL_NAME);
		expect(notes).toContain(CAMPAIGN_FORM_CREDENTIAL);
	});

	it('sends with Send SMS, Summary and Problems Only, the credential by name and only known parameters; the form asks for its login', () => {
		const send = byName(workflow, 'Send SMS');
		expect(send.credentials).toEqual({
			smsLeopardApi: { id: null, name: EXAMPLE_CREDENTIAL_NAME },
		});
		expect(send.parameters).toMatchObject({
			operation: 'sendSms',
			requestOptions: { output: 'summary' },
		});
		expect(Object.keys(send.parameters).filter((name) => !knownParameters.has(name))).toEqual([]);
		const form = byName(workflow, 'Fallback Form');
		expect([form.parameters.authentication, form.credentials]).toEqual([
			'basicAuth',
			{ httpBasicAuth: { id: null, name: CAMPAIGN_FORM_CREDENTIAL } },
		]);
		// Started by hand, by the form or by the schedule: all through Campaign Settings.
		for (const start of ['Start Fallback', 'Fallback Form', 'Every Hour'])
			expect(next(start)).toEqual(['Campaign Settings']);
	});

	it.each([
		['Claim Failed Rows', { keyName: 'fallback', condition: 'isEmpty' }],
		['Claim Rows Left Blank', { keyName: 'fallback', condition: 'eq', keyValue: '' }],
		[
			'Claim Rows Not Sent Before',
			{ keyName: 'fallback', condition: 'like', keyValue: 'not sent%' },
		],
	])(
		'%s claims, in one update, only failed WhatsApp rows of the campaign whose fallback is free',
		(name, free) => {
			const claim = byName(workflow, name);
			expect(claim.executeOnce).toBe(true);
			expect(claim.parameters).toMatchObject({
				operation: 'update',
				dataTableId: { value: 'smsleopard_deliveries' },
				matchType: 'allConditions',
				filters: {
					conditions: [
						CAMPAIGN_IS,
						{ keyName: 'channel', condition: 'eq', keyValue: 'whatsapp' },
						{ keyName: 'status', condition: 'eq', keyValue: 'failed' },
						free,
					],
				},
				columns: { value: { fallback: CLAIM } },
			});
		},
	);

	it('sends only the rows it reads back holding its own claim, and records only into rows that still hold it', () => {
		expect(next('Check Settings')).toEqual(['Claim Failed Rows']);
		expect(next('Claim Failed Rows')).toEqual(['Claim Rows Left Blank']);
		expect(next('Claim Rows Left Blank')).toEqual(['Claim Rows Not Sent Before']);
		expect(next('Claim Rows Not Sent Before')).toEqual(['Rows Won']);
		expect(byName(workflow, 'Rows Won').parameters).toMatchObject({
			operation: 'get',
			filters: {
				conditions: [CAMPAIGN_IS, { keyName: 'fallback', condition: 'eq', keyValue: CLAIM }],
			},
			returnAll: true,
		});
		expect(next('Rows Won')).toEqual(['Read Opt-Outs']);
		expect(next('Read Opt-Outs')).toEqual(['People to Send']);
		expect(next('Anyone to Send?', 0)).toEqual(['Send SMS']);
		expect(next('Anyone to Send?', 1)).toEqual(['Fallback Outcomes']);
		expect(next('Send SMS')).toEqual(['Fallback Outcomes']);
		// Each SMS sent is recorded as a deliveries row of its own (channel sms), never claimed.
		expect(next('Fallback Outcomes')).toEqual(['Record Fallback', 'SMS Messages']);
		expect(next('SMS Messages')).toEqual(['Record SMS Messages']);
		expect(byName(workflow, 'Record SMS Messages').parameters).toMatchObject({
			operation: 'insert',
			dataTableId: { value: 'smsleopard_deliveries' },
		});
		expect(byName(workflow, 'Record Fallback').parameters).toMatchObject({
			operation: 'update',
			filters: {
				conditions: [
					{ keyName: 'id', condition: 'eq' },
					{ keyName: 'fallback', condition: 'eq', keyValue: CLAIM },
				],
			},
		});
	});

	it('People to Send: one per number, opted-out people none (any written form), nobody when the list was not read', () => {
		const rows = [
			{ id: 1, phone: '+254712000001' },
			{ id: 2, phone: '+254712000001' },
			{ id: 3, phone: '+254712000002' },
			{ id: 4, phone: '+254712000003' },
		];
		const people = runFallbackPeople(rows, [
			out('0712 000 002'),
			{ ...out('+254712000003'), status: 'opted in' },
		]);
		expect(people.map((item) => item.json)).toEqual([
			{ phone: '+254712000001' },
			{ phone: '+254712000003' },
		]);
		const unread = runFallbackPeople(rows, [], [{ json: { campaign: 'spring' } }]);
		expect(unread.map((item) => item.json)).toEqual([{ nobody: true, optOutListUnread: true }]);
	});

	it('Fallback Outcomes: sent with the SMS id, maybe sent, not sent with why, opted out; a send that gave no summary is maybe sent', () => {
		const rows = ['+254712000001', '+254712000002', '+254712000003', '+254712000004'].map(
			(phone, index) => ({ json: { id: index + 1, messageId: `wamid.${index}`, phone } }),
		);
		const asked = rows.slice(0, 3).map((row) => ({ json: { phone: row.json.phone } }));
		const outcomes = (send: Array<{ json: Record<string, unknown> }>) =>
			runExampleCode(SMS_FALLBACK, 'Fallback Outcomes', {
				'Check Settings': [{ json: { campaign: 'spring', claim: 'claimed (execution 41)' } }],
				'Rows Won': rows,
				'People to Send': asked,
				'Send SMS': send,
			}).map((item) => [item.json.rowId, item.json.fallback]);
		expect(
			outcomes([
				{
					json: {
						summary: true,
						sentTo: ['+254712000001'],
						messageIds: ['sms-1'],
						maybeSentTo: ['+254712000002'],
						notSentTo: ['+254712000003'],
						cost: 0.9,
					},
				},
				{
					json: {
						recipient: '+254712000003',
						outcome: 'not sent',
						error: 'Sender ID is not registered',
					},
				},
			]),
		).toEqual([
			[1, 'sent sms-1'],
			[2, 'maybe sent'],
			[3, 'not sent (Sender ID is not registered)'],
			[4, 'not sent (opted out)'],
		]);
		expect(outcomes([{ json: { error: 'The service was not reachable' } }]).slice(0, 3)).toEqual([
			[1, 'maybe sent'],
			[2, 'maybe sent'],
			[3, 'maybe sent'],
		]);
	});

	it('Fallback Summary counts per person and fails the run, saying why, when the opt-out list was not read', () => {
		const summary = (outcomes: Array<Record<string, unknown>>) =>
			runExampleCode(SMS_FALLBACK, 'Fallback Summary', {
				'Check Settings': [{ json: { campaign: 'spring' } }],
				'Fallback Outcomes': outcomes.map((json) => ({ json })),
				'Send SMS': [{ json: { summary: true, cost: 1.8 } }],
			})[0].json;
		expect(
			summary([
				{ rowId: 1, phone: '+254712000001', fallback: 'sent a', sent: true },
				{ rowId: 2, phone: '+254712000001', fallback: 'sent a', sent: true },
				{ rowId: 3, phone: '+254712000002', fallback: 'maybe sent' },
				{ rowId: 4, phone: '+254712000003', fallback: 'not sent (refused)' },
				{ rowId: 5, phone: '+254712000004', fallback: 'not sent (opted out)' },
			]),
		).toMatchObject({ tried: 4, sent: 1, maybeSent: 1, notSent: 1, optedOut: 1, cost: 1.8 });
		expect(() =>
			summary([{ rowId: 1, phone: '+254712000001', fallback: 'not sent (opt-out list not read)' }]),
		).toThrow(/opt-out list \(smsleopard_opt_outs\) could not be read: nobody was sent/);
	});
});
