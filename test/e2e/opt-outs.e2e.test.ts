/**
 * The opt-out example of examples/ in real n8n (`n8n start`, regular mode): the file as shipped,
 * activated with a credential that has a Webhook Secret. The sandbox posts WhatsApp replies as Meta
 * signs them; SMS replies are posted in the shapes gateways use for inbound SMS (SMSLeopard
 * documents none). The table smsleopard_opt_outs must hold one row per number, in normal form,
 * with the status of the last word, and nothing for other messages.
 */
import { readFileSync } from 'fs';
import path from 'path';
import { packedForThisFile } from './harness';
import type { N8nRest, WorkflowJson } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { EXAMPLES_DIR, EXAMPLE_CREDENTIAL_NAME } from './workflows/examples';

const tarball = packedForThisFile();
const FILE = 'opt-outs-from-replies.json';
const TABLE = 'smsleopard_opt_outs';
const SECRET = 'opt-out-webhook-secret-e2e-6b2d';

interface ExampleNode {
	type: string;
	webhookId?: string;
	credentials?: unknown;
}

interface OptOutRow {
	phone: string;
	status: string;
	word: string;
	at: string;
	source: string;
}

async function optOutRows(rest: N8nRest): Promise<OptOutRow[]> {
	const projectId = await rest.personalProjectId();
	const tables = await rest.call<{ data: Array<{ id: string; name: string }> }>(
		'GET',
		`/rest/projects/${projectId}/data-tables?take=100`,
	);
	const table = tables.data.find((entry) => entry.name === TABLE);
	if (!table) return [];
	const page = await rest.call<{ data: OptOutRow[] }>(
		'GET',
		`/rest/projects/${projectId}/data-tables/${table.id}/rows?take=1000`,
	);
	return page.data;
}

// The example creates its table with n8n 2's Data table node (n8n 1.x: by hand, see its note).
describe.each(selectedVersions().filter((version) => !version.startsWith('1.')))(
	'opt-outs from replies in n8n %s',
	(version) => {
		const n8n = useServedN8n(version, tarball, { credentialName: 'SMSLeopard sandbox' });
		let url: string;

		beforeAll(async () => {
			const credential = await n8n.rest.createCredential(EXAMPLE_CREDENTIAL_NAME, 'smsLeopardApi', {
				...n8n.sandbox.credentialData,
				webhookSecret: SECRET,
			});
			const workflow = JSON.parse(
				readFileSync(path.join(EXAMPLES_DIR, FILE), 'utf8'),
			) as WorkflowJson;
			const trigger = (workflow.nodes as ExampleNode[]).find((node) =>
				node.type.endsWith('.smsLeopardTrigger'),
			);
			// Picked in the editor after import: the credential by id.
			trigger!.credentials = { smsLeopardApi: credential };
			const projectId = await n8n.rest.personalProjectId();
			await n8n.rest.activateWorkflow({ ...workflow, projectId });
			url = `${n8n.server.url}/webhook/${trigger!.webhookId}/smsleopard`;
			for (let attempt = 0; attempt < 60; attempt++) {
				if ((await fetch(url, { method: 'POST', body: '{}' })).status !== 404) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}, 120_000);

		beforeEach(() =>
			n8n.sandbox.setOptions({ whatsappWebhookUrl: url, whatsappWebhookSecret: SECRET }),
		);

		/** An SMS reply as a gateway forwards it, the secret in a header. */
		async function smsReply(body: string, contentType: string): Promise<number> {
			const response = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': contentType, 'x-status-secret': SECRET },
				body,
			});
			return response.status;
		}
		const jsonReply = (fields: Record<string, unknown>) =>
			smsReply(JSON.stringify(fields), 'application/json');

		/** The rows once `ready` holds of them (bounded: 60 s). */
		async function rowsWhen(ready: (rows: OptOutRow[]) => boolean): Promise<OptOutRow[]> {
			const deadline = Date.now() + 60_000;
			let rows: OptOutRow[] = [];
			while (Date.now() < deadline) {
				rows = await optOutRows(n8n.rest);
				if (ready(rows)) return rows;
				await new Promise((resolve) => setTimeout(resolve, 300));
			}
			return rows;
		}
		const rowsOf = (rows: OptOutRow[], phone: string) => rows.filter((row) => row.phone === phone);
		const statusOf = (rows: OptOutRow[], phone: string) =>
			rowsOf(rows, phone).map((row) => [row.status, row.word, row.source]);

		it('a WhatsApp "Stop", an SMS "STOP PROMO" from a national number, and an SMS START after a quick-reply STOP: one row each, in normal form', async () => {
			expect(await n8n.sandbox.customerReplies({ from: '+254712000101', text: 'Stop' })).toBe(200);
			expect(await jsonReply({ id: 'sms-in-1', from: '0712 000 102', message: 'STOP PROMO' })).toBe(
				200,
			);
			expect(
				await n8n.sandbox.customerReplies({
					from: '+254712000103',
					payload: 'STOP',
					text: 'No more offers',
				}),
			).toBe(200);
			// A message that is no word adds nothing.
			expect(await jsonReply({ id: 'sms-in-2', from: '+254712000104', message: 'Hello' })).toBe(
				200,
			);
			let rows = await rowsWhen(
				(found) => found.length >= 3 && rowsOf(found, '+254712000103').length > 0,
			);
			expect(statusOf(rows, '+254712000101')).toEqual([['opted out', 'STOP', 'whatsapp']]);
			expect(statusOf(rows, '+254712000102')).toEqual([['opted out', 'STOP PROMO', 'sms']]);
			expect(statusOf(rows, '+254712000103')).toEqual([['opted out', 'STOP', 'whatsapp']]);

			// START by SMS, Africa's Talking's form shape, the number without its plus.
			const form = new URLSearchParams({
				from: '254712000103',
				to: '22334',
				text: 'start',
				id: 'at-9',
			});
			expect(await smsReply(form.toString(), 'application/x-www-form-urlencoded')).toBe(200);
			rows = await rowsWhen((found) => rowsOf(found, '+254712000103')[0]?.status === 'opted in');
			expect(statusOf(rows, '+254712000103')).toEqual([['opted in', 'START', 'sms']]);
			expect(rowsOf(rows, '+254712000104')).toEqual([]);
			expect(rows.map((row) => row.phone).sort()).toEqual([
				'+254712000101',
				'+254712000102',
				'+254712000103',
			]);
			for (const row of rows) expect(Number.isNaN(Date.parse(row.at))).toBe(false);
		});

		it('the same STOP again, and a client that posts one reply twice: still one row', async () => {
			const before = await rowsWhen((found) => rowsOf(found, '+254712000101').length === 1);
			expect(rowsOf(before, '+254712000101')).toHaveLength(1);
			expect(await n8n.sandbox.customerReplies({ from: '+254712000101', text: 'STOP' })).toBe(200);
			const twice = { id: 'sms-in-twice', from: '+254712000105', message: 'unsubscribe' };
			expect([await jsonReply(twice), await jsonReply(twice)]).toEqual([200, 200]);
			const rows = await rowsWhen((found) => rowsOf(found, '+254712000105').length > 0);
			// A moment more for a second row, if one were coming.
			await new Promise((resolve) => setTimeout(resolve, 2000));
			const settled = await optOutRows(n8n.rest);
			expect(statusOf(settled, '+254712000101')).toEqual([['opted out', 'STOP', 'whatsapp']]);
			expect(statusOf(settled, '+254712000105')).toEqual([['opted out', 'UNSUBSCRIBE', 'sms']]);
			expect(rows.length).toBeGreaterThanOrEqual(4);
		});

		it('a stranger without the secret writes nothing; five STOPs from one number at once leave one row', async () => {
			const stranger = await fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ id: 'sms-in-x', from: '+254712000106', message: 'STOP' }),
			});
			expect(stranger.status).toBe(401);
			const five = Array.from({ length: 5 }, (_, index) =>
				jsonReply({ id: `sms-in-five-${index}`, from: '+254712000107', message: 'Stop!' }),
			);
			expect(await Promise.all(five)).toEqual([200, 200, 200, 200, 200]);
			await rowsWhen((found) => rowsOf(found, '+254712000107').length > 0);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const rows = await optOutRows(n8n.rest);
			expect(rowsOf(rows, '+254712000106')).toEqual([]);
			expect(statusOf(rows, '+254712000107')).toEqual([['opted out', 'STOP', 'sms']]);
		});
	},
);
