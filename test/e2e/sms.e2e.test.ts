/**
 * SMS as users get it: the packed package in real n8n versions, run with `n8n execute` against the
 * sandbox. Send SMS both ways with several items per request, each output item paired back to its
 * input; a delivery report read before and after delivery; the balance lower after the sends.
 * Asserted on n8n's output items and on the sandbox's request log.
 */
import {
	type ExecuteResult,
	type RunOptions,
	type WorkflowJson,
	nodeItems,
	packedForThisFile,
	pairedItems,
} from './harness';
import { selectedVersions } from './matrix';
import { expectOk, useSandboxedN8n } from './sandboxed-n8n';
import { code, trigger, workflow } from './workflows/build';
import { SMS_SENDER_ID, balance, deliveryReport, sendSms } from './workflows/sms';

const CREDENTIAL = { id: 'e2eSmsCredential01', name: 'SMSLeopard sandbox' };
const COST_PER_PART = 0.9;
/** An hour: no message sent in a run is delivered before the test says time has passed. */
const NOT_YET_DELIVERED_MS = 3_600_000;

const tarball = packedForThisFile();

/** A Code node returning these objects as items. */
const itemsOf = (name: string, rows: Array<Record<string, unknown>>) =>
	code(name, `${JSON.stringify(rows)}.map((json) => ({ json }))`);

/** Five customers: one non-GSM name (Zoë) and one long text, so parts differ. */
const CUSTOMERS = [
	{ phone: '+254720000021', name: 'Amina', order: 'A-1001' },
	{ phone: '+254720000022', name: 'Zoë', order: 'A-1002' },
	{ phone: '+254720000023', name: 'Brian', order: 'A-1003' },
	{
		phone: '+254720000024',
		name: 'Cynthia Wanjiru of the Nairobi West branch, loyalty tier Gold',
		order: 'A-1004-EXPRESS-2-BOXES',
	},
	{ phone: '+254720000025', name: 'Daudi', order: 'A-1005' },
];

const paired = (count: number) => Array.from({ length: count }, (_, item) => ({ item }));

describe.each(selectedVersions())('SMS in n8n %s', (version) => {
	// The run's shared n8n (harness/shared-n8n.ts): these tests read only their own runs.
	const n8n = useSandboxedN8n(
		version,
		tarball,
		(data) => [{ ...CREDENTIAL, type: 'smsLeopardApi', data }],
		{},
		{},
		{ shared: true },
	);
	const run = async (json: WorkflowJson, options?: RunOptions): Promise<ExecuteResult> => {
		const result = await n8n.run(json, options);
		expectOk(result);
		return result;
	};

	const smsRequests = () =>
		n8n.sandbox.requests
			.filter((request) => request.path === '/v1/sms/send')
			.map((request) => request.body as { destination: Array<Record<string, string>> });

	it('sends one text to every recipient, 3 per request, each output item paired to its input; the balance drops by the cost', async () => {
		// As given: international with and without +, and Kenyan local form.
		const phones = [
			'+254720000001',
			'0720000002',
			'254720000003',
			'+254720000004',
			'+254720000005',
			'+254720000006',
			'+254720000007',
		];
		const text = 'Flash sale: 20% off today only. Reply STOP to opt out';
		const result = await run(
			workflow('sms same text', [
				[
					trigger(),
					balance('Balance Before', CREDENTIAL),
					itemsOf(
						'Customers',
						phones.map((phone) => ({ phone })),
					),
					sendSms('Send SMS', CREDENTIAL, text, { recipientsPerRequest: 3 }),
					balance('Balance After', CREDENTIAL),
				],
			]),
		);

		const requests = smsRequests();
		expect(requests).toEqual([
			{
				source: SMS_SENDER_ID,
				message: text,
				destination: phones.slice(0, 3).map((number) => ({ number })),
			},
			{
				source: SMS_SENDER_ID,
				message: text,
				destination: phones.slice(3, 6).map((number) => ({ number })),
			},
			{ source: SMS_SENDER_ID, message: text, destination: [{ number: phones[6] }] },
		]);
		const texted = n8n.sandbox.state.smsMessages;
		expect(texted.map((message) => message.number)).toEqual(
			phones.map((_, index) => `+25472000000${index + 1}`),
		);

		const sent = nodeItems(result.runData, 'Send SMS');
		expect(sent).toEqual(
			phones.map((phone, index) => ({
				outcome: 'sent',
				recipient: phone,
				number: texted[index].number,
				messageId: texted[index].id,
				status: 'queued',
				message: text,
				parts: 1,
				encoding: 'GSM-7',
				characters: text.length,
				cost: COST_PER_PART,
				currency: 'KES',
			})),
		);
		expect(pairedItems(result.runData, 'Send SMS')).toEqual(paired(phones.length));

		const [before] = nodeItems(result.runData, 'Balance Before');
		const after = nodeItems(result.runData, 'Balance After');
		expect(after).toHaveLength(1);
		expect(after[0].currency).toBe('KES');
		expect(Number(before.balance) - Number(after[0].balance)).toBeCloseTo(
			phones.length * COST_PER_PART,
			2,
		);
	});

	it('sends 10,000 recipients in 100 requests, each once, and every output item is read back in order', async () => {
		const count = 10_000;
		const result = await run(
			workflow('sms 10000', [
				[
					trigger(),
					code(
						'Customers',
						`Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+25472' + String(i).padStart(7, '0') } }))`,
					),
					sendSms('Send SMS', CREDENTIAL, 'Flash sale today only'),
				],
			]),
			{ timeoutMs: 600_000 },
		);
		expect(smsRequests()).toHaveLength(count / 100);
		const numbers = n8n.sandbox.state.smsMessages.map((message) => message.number);
		expect(new Set(numbers).size).toBe(count);
		// 10,000 items are megabytes of output: the harness must read them whole.
		const sent = nodeItems(result.runData, 'Send SMS');
		expect(sent.map((item) => item.number)).toEqual(numbers);
		expect(pairedItems(result.runData, 'Send SMS')).toEqual(paired(count));
	}, 900_000);

	it('Output: Summary and Problems Only: 2,000 recipients come out as one item naming each of them, at their cost', async () => {
		const count = 2_000;
		const node = sendSms('Send SMS', CREDENTIAL, 'Flash sale today only');
		node.parameters.requestOptions = { output: 'summary' };
		const result = await run(
			workflow('sms summary', [
				[
					trigger(),
					code(
						'Customers',
						`Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+25473' + String(i).padStart(7, '0') } }))`,
					),
					node,
				],
			]),
			{ timeoutMs: 300_000 },
		);
		const [summary, ...rest] = nodeItems(result.runData, 'Send SMS');
		expect(rest).toEqual([]);
		expect(summary).toMatchObject({ summary: true, sent: count, maybeSent: 0, notSent: 0 });
		const numbers = n8n.sandbox.state.smsMessages.map((message) => message.number);
		expect(new Set(numbers).size).toBe(count);
		expect((summary.sentTo as string[]).map((phone) => phone.replace('+', ''))).toEqual(
			numbers.map((number) => number.replace('+', '')),
		);
		expect(summary.cost).toBeCloseTo(count * COST_PER_PART, 6);
	}, 600_000);

	it('customizes the text per recipient from the item fields, 2 per request, with parts and cost for each', async () => {
		const customers = CUSTOMERS;
		const pattern =
			'Hi {name}, order {order} is out for delivery today. Track it at example.com/t/{order}';
		const fill = (customer: (typeof customers)[number]) =>
			pattern.replace('{name}', customer.name).replaceAll('{order}', customer.order);
		const result = await run(
			workflow('sms customized', [
				[
					trigger(),
					itemsOf('Customers', customers),
					sendSms('Send SMS', CREDENTIAL, pattern, {
						customized: true,
						recipientsPerRequest: 2,
						maxParts: 3,
					}),
				],
			]),
		);

		const requests = smsRequests();
		expect(requests.map((body) => body.destination.length)).toEqual([2, 2, 1]);
		expect(requests.every((body) => (body as Record<string, unknown>).multi === true)).toBe(true);
		expect(requests.flatMap((body) => body.destination)).toEqual(
			customers.map((customer) => ({ number: customer.phone, message: fill(customer) })),
		);

		const texted = n8n.sandbox.state.smsMessages;
		const sent = nodeItems(result.runData, 'Send SMS');
		// The node counts the parts before sending; the sandbox bills what it counts itself.
		expect(sent.map((item) => [item.recipient, item.messageId, item.parts, item.cost])).toEqual(
			texted.map((message, index) => [
				customers[index].phone,
				message.id,
				message.parts,
				message.cost,
			]),
		);
		expect(sent.map((item) => [item.encoding, item.parts])).toEqual([
			['GSM-7', 1],
			['UCS-2', 2],
			['GSM-7', 1],
			['GSM-7', 2],
			['GSM-7', 1],
		]);
		expect(sent[1]).toMatchObject({ nonGsmCharacters: ['ë'], cost: 2 * COST_PER_PART });
		expect(pairedItems(result.runData, 'Send SMS')).toEqual(paired(customers.length));
	});

	it('Dry Run: the same customers checked and counted with their cost, nothing sent', async () => {
		const pattern =
			'Hi {name}, order {order} is out for delivery today. Track it at example.com/t/{order}';
		const result = await run(
			workflow('sms dry run', [
				[
					trigger(),
					itemsOf('Customers', CUSTOMERS),
					sendSms('Send SMS', CREDENTIAL, pattern, {
						customized: true,
						recipientsPerRequest: 2,
						maxParts: 3,
						dryRunPricePerPart: COST_PER_PART,
					}),
				],
			]),
		);
		expect(smsRequests()).toEqual([]);
		expect(n8n.sandbox.state.smsMessages).toEqual([]);
		const previewed = nodeItems(result.runData, 'Send SMS');
		expect(previewed.map((item) => [item.dryRun, item.parts, item.request])).toEqual([
			[true, 1, 1],
			[true, 2, 1],
			[true, 1, 2],
			[true, 2, 2],
			[true, 1, 3],
		]);
		expect(previewed.map((item) => item.estimatedCost)).toEqual(
			previewed.map((item) => Math.round(Number(item.parts) * COST_PER_PART * 1e6) / 1e6),
		);
		expect(pairedItems(result.runData, 'Send SMS')).toEqual(paired(CUSTOMERS.length));
	});

	it('reads the delivery report of a message sent in an earlier run: queued then, delivered or failed now', async () => {
		n8n.sandbox.setOptions({ smsDeliveryMs: NOT_YET_DELIVERED_MS });
		// A number ending in 999 is one the sandbox's carrier cannot reach.
		const phones = ['+254720000031', '+254720000999'];
		const first = await run(
			workflow('sms report now', [
				[
					trigger(),
					itemsOf(
						'Customers',
						phones.map((phone) => ({ phone })),
					),
					sendSms('Send SMS', CREDENTIAL, 'Your parcel PX-31 is on its way'),
					deliveryReport('Report Now', CREDENTIAL),
				],
			]),
		);
		const ids = nodeItems(first.runData, 'Send SMS').map((item) => String(item.messageId));
		expect(nodeItems(first.runData, 'Report Now')).toEqual(
			ids.map((messageId) =>
				expect.objectContaining({ messageId, status: 'queued', outcome: 'pending' }),
			),
		);
		expect(pairedItems(first.runData, 'Report Now')).toEqual(paired(2));

		// The delivery time has passed: the same ids, read in a later run.
		n8n.sandbox.setOptions({ smsDeliveryMs: 0 });
		const before = n8n.sandbox.requests.length;
		const later = await run(
			workflow('sms report later', [
				[
					trigger(),
					itemsOf(
						'Sent Earlier',
						ids.map((messageId) => ({ messageId })),
					),
					deliveryReport('Report Later', CREDENTIAL),
				],
			]),
		);
		expect(nodeItems(later.runData, 'Report Later')).toEqual([
			expect.objectContaining({
				messageId: ids[0],
				status: 'DELIVRD',
				outcome: 'delivered',
				reason: '',
			}),
			expect.objectContaining({
				messageId: ids[1],
				status: 'UNDELIV',
				outcome: 'failed',
				reason: 'Absent subscriber',
			}),
		]);
		expect(n8n.sandbox.requests.slice(before).map((request) => request.path)).toEqual(
			ids.map((id) => `/v1/delivery_reports/${id}`),
		);
		expect(smsRequests()).toHaveLength(1);
	});
});
