/**
 * Deliveries counted per campaign (issue 54), for queue mode (test/queue/deliveries.queue.test.ts)
 * and regular mode (test/e2e/campaign.e2e.test.ts) alike: the shipped campaign sends a WhatsApp
 * template to 20 people; the sandbox posts each message's "sent" status to the activated trigger
 * workflow (examples/opt-outs-from-replies.json) at the moment it is sent, before the batch has
 * written its rows; the test then posts the rest as SMSLeopard would, some repeated, some out of
 * order (read before delivered), several in one post, and one for a message no campaign sent. A
 * check must then count every message once at its highest status.
 */
import type { N8nRest } from '../../e2e/harness';
import type { Sandbox } from '../../sandbox';
import { dataTableRows, findCampaignTable, findDataTable, listOf, postJson } from './campaign-kit';
import { DELIVERIES_TABLE, type WhatsAppStatus, whatsappStatusBody } from './delivery-reports';
import type { TestRegistrar } from './safety-cases';

export interface DeliveriesUnderTest {
	rest(): N8nRest;
	sandbox(): Sandbox;
	campaignUrl(): string;
	/** The activated trigger workflow's URL and the Webhook Secret of its credential. */
	trigger(): { url: string; secret: string };
	putList(name: string, rows: Array<{ phone: string; name: string }>): void;
	listUrl(name: string): string;
}

type DeliveryRow = { messageId: string; campaign: string | null; status: string };

export function campaignDeliveryCases(it: TestRegistrar, under: DeliveriesUnderTest): void {
	/** WhatsApp statuses in one post, as SMSLeopard forwards them. */
	const postStatuses = (statuses: WhatsAppStatus[]) =>
		fetch(under.trigger().url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-status-secret': under.trigger().secret },
			body: whatsappStatusBody(statuses),
		});

	/** Every row: the suite's earlier campaigns may have written thousands. */
	async function deliveryRows(): Promise<DeliveryRow[]> {
		const { projectId, id } = await findDataTable(under.rest(), DELIVERIES_TABLE);
		return id === undefined ? [] : await dataTableRows<DeliveryRow>(under.rest(), projectId, id);
	}

	it('a campaign of 20, its reports repeated, out of order, before its record and for an unknown message: the check counts each message once', async () => {
		// "sent" at once; "delivered" after 10 minutes, long after this test: the test posts the rest.
		// Put back when the case ends: left on, every later case's sends would post a report each
		// to the trigger, and SQLite n8n drowns in them ("Database is not ready!").
		const before = under.sandbox().currentOptions();
		try {
			await countedOnce();
		} finally {
			under.sandbox().restoreOptions(before);
		}
	}, 420_000);

	async function countedOnce() {
		under.sandbox().setOptions({
			smsDeliveryMs: 600_000,
			whatsappWebhookUrl: under.trigger().url,
			whatsappWebhookSecret: under.trigger().secret,
		});
		const people = Array.from({ length: 20 }, (_, index) => ({
			phone: `+2547130${String(index).padStart(5, '0')}`,
			name: `Customer ${index}`,
		}));
		under.putList('counted', people);
		const start = (extra: Record<string, unknown> = {}) =>
			postJson(under.campaignUrl(), {
				campaign: 'counted',
				recipientsUrl: under.listUrl('counted'),
				...extra,
			});
		expect((await start()).status).toBe(202);

		// The batch recorded done, with the message ids SMSLeopard gave.
		const deadline = Date.now() + 180_000;
		let ids: string[] = [];
		while (Date.now() < deadline && ids.length < 20) {
			const rows = ((await (await findCampaignTable(under.rest()))?.rows('counted')) ?? []).filter(
				(row) => row.batch !== 'claim' && row.status === 'done',
			);
			ids = rows.flatMap((row) => listOf(row.sent).map((entry) => entry.split(':')[1]));
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		expect(ids.length).toBe(20);

		// 0-4 read (read posted before delivered), 5-9 delivered (each posted twice), 10-12 failed not
		// on WhatsApp, 13-14 failed for another reason, 15-19 only the sandbox's "sent".
		const posts: WhatsAppStatus[][] = [
			ids.slice(0, 3).map((id) => ({ id, status: 'read' })),
			ids.slice(0, 5).map((id) => ({ id, status: 'delivered' })),
			ids.slice(3, 5).map((id) => ({ id, status: 'read' })),
			...ids.slice(5, 10).map((id) => [{ id, status: 'delivered' }]),
			...ids.slice(5, 10).map((id) => [{ id, status: 'delivered' }]),
			ids.slice(10, 13).map((id) => ({ id, status: 'failed', reason: 'Not on WhatsApp' })),
			ids.slice(13, 15).map((id) => ({ id, status: 'failed', reason: 'Message expired' })),
			// A late "sent" lowers nothing; a "delivered" after failed changes nothing.
			[
				{ id: ids[0], status: 'sent' },
				{ id: ids[10], status: 'delivered' },
			],
			[{ id: 'wamid.not-from-this-campaign', status: 'delivered' }],
		];
		for (const post of posts) expect((await postStatuses(post)).status).toBe(200);

		const settle = Date.now() + 120_000;
		let rows = await deliveryRows();
		const finished = () =>
			rows.filter((row) => row.campaign === 'counted' && ['read', 'failed'].includes(row.status))
				.length === 10 && rows.some((row) => !row.campaign);
		while (Date.now() < settle && !finished()) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			rows = await deliveryRows();
		}
		await new Promise((resolve) => setTimeout(resolve, 3000));
		rows = await deliveryRows();
		// One row per message of the campaign; the unknown one kept without a campaign.
		expect(
			rows
				.filter((row) => row.campaign === 'counted')
				.map((row) => row.messageId)
				.sort(),
		).toEqual([...ids].sort());
		expect(rows.filter((row) => !row.campaign).map((row) => row.messageId)).toEqual([
			'wamid.not-from-this-campaign',
		]);

		const check = await start({ checkOnly: true });
		expect(check.status).toBe(200);
		expect(check.body).toMatchObject({
			state: 'checked',
			sent: 20,
			accepted: 20,
			delivered: 10,
			read: 5,
			failed: 5,
			pending: 5,
			sentNotTracked: 0,
			unknownReports: 1,
			failedReasons: [
				{ reason: expect.stringContaining('Not on WhatsApp'), count: 3 },
				{ reason: expect.stringContaining('Message expired'), count: 2 },
			],
		});
		expect(String(check.body.message)).toContain('20 accepted, 10 delivered (5 read), 5 failed');
		expect(String(check.body.formSubmittedText)).toContain('5 pending');
	}
}
