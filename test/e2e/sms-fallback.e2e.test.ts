/**
 * The SMS fallback of examples/ in real n8n (`n8n start`, regular mode): the file as shipped,
 * published, started from its Fallback Form. The deliveries table is filled as the campaign's batch
 * workflows and the deliveries workflow leave it (issue 54's contract), the opt-out list as the
 * opt-out workflow writes it. What the sandbox sent is counted per phone: each person whose WhatsApp
 * message failed gets the SMS exactly once, however many runs start at once; opted-out people none.
 */
import { packedForThisFile } from './harness';
import type { N8nRest } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { EXAMPLE_CREDENTIAL_NAME } from './workflows/examples';
import {
	TEST_FORM_LOGIN,
	campaignWorkflow,
	createCampaignFormLogin,
	sendsPerPhone,
	webhookPath,
} from '../queue/campaign/campaign-kit';
import { optOutList } from '../queue/campaign/opt-out-list';

const tarball = packedForThisFile();
const FILE = 'campaign-sms-fallback.json';
const DELIVERIES = 'smsleopard_deliveries';

/** A row of smsleopard_deliveries (the contract shared with the deliveries work of issue 54). */
interface Delivery {
	id?: number;
	messageId: string;
	campaign: string;
	batch: string;
	phone: string;
	channel: 'whatsapp' | 'sms';
	status: 'accepted' | 'pending' | 'delivered' | 'read' | 'failed';
	reason: string;
	reportedAt: string;
	fallback?: string | null;
	rank: number;
}
const RANK = { accepted: 0, pending: 1, delivered: 2, failed: 2, read: 3 } as const;

class Deliveries {
	constructor(
		private readonly rest: N8nRest,
		private readonly projectId: string,
		private readonly id: string,
	) {}

	static async create(rest: N8nRest): Promise<Deliveries> {
		const projectId = await rest.personalProjectId();
		const text = ['messageId', 'campaign', 'batch', 'phone', 'channel', 'status', 'reason'];
		const columns = [
			...[...text, 'reportedAt', 'fallback'].map((name) => ({ name, type: 'string' })),
			{ name: 'rank', type: 'number' },
		];
		const table = await rest.call<{ id: string }>(
			'POST',
			`/rest/projects/${projectId}/data-tables`,
			{
				name: DELIVERIES,
				columns,
			},
		);
		return new Deliveries(rest, projectId, table.id);
	}

	async insert(rows: Delivery[]): Promise<void> {
		await this.rest.call('POST', `/rest/projects/${this.projectId}/data-tables/${this.id}/insert`, {
			data: rows,
			returnType: 'all',
		});
	}

	async rows(): Promise<Delivery[]> {
		const page = await this.rest.call<{ data: Delivery[] }>(
			'GET',
			`/rest/projects/${this.projectId}/data-tables/${this.id}/rows?take=1000`,
		);
		return page.data;
	}
}

let counter = 0;
/** A WhatsApp message of a campaign batch, as the deliveries workflow left it. */
const whatsapp = (
	campaign: string,
	phone: string,
	status: Delivery['status'],
	fallback: string | null | undefined = undefined,
): Delivery => {
	const row: Delivery = {
		messageId: `wamid.E2E${String(++counter).padStart(6, '0')}`,
		campaign,
		batch: '7-1',
		phone,
		channel: 'whatsapp',
		status,
		reason: status === 'failed' ? '131026 Message undeliverable' : '',
		reportedAt: status === 'accepted' ? '' : '2026-11-29T09:00:00.000Z',
		rank: RANK[status],
	};
	// 54c's rows leave fallback empty: null when the insert leaves it out, or an empty text.
	if (fallback !== undefined) row.fallback = fallback;
	return row;
};

describe.each(selectedVersions().filter((version) => !version.startsWith('1.')))(
	'SMS fallback in n8n %s',
	(version) => {
		const n8n = useServedN8n(version, tarball, {
			credentialName: EXAMPLE_CREDENTIAL_NAME,
			sandboxOptions: { latencyMs: 5 },
		});
		let deliveries: Deliveries;
		let formUrl: string;
		const owner = `Basic ${Buffer.from(`${TEST_FORM_LOGIN.user}:${TEST_FORM_LOGIN.password}`).toString('base64')}`;

		beforeAll(async () => {
			const formLogin = await createCampaignFormLogin(n8n.rest);
			await n8n.rest.activateWorkflow(
				campaignWorkflow(FILE, n8n.credential, { requestsPerSecond: 200 }, undefined, {
					formLogin,
				}),
			);
			deliveries = await Deliveries.create(n8n.rest);
			formUrl = `${n8n.server.url}/form/${webhookPath(FILE, 'Fallback Form')}`;
			for (let attempt = 0; attempt < 60; attempt++) {
				if ((await fetch(formUrl, { headers: { authorization: owner } })).status === 200) break;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}, 120_000);

		const smsPerPhone = () =>
			sendsPerPhone(n8n.sandbox.state.smsMessages.map((message) => message.number));
		/** The form as its page posts it: the campaign's name. */
		async function submit(campaign: string, authorization = owner) {
			const form = new FormData();
			form.append('field-0', campaign);
			const response = await fetch(formUrl, {
				method: 'POST',
				body: form,
				headers: { authorization },
			});
			const text = await response.text();
			let body: Record<string, unknown> = {};
			try {
				body = JSON.parse(text) as Record<string, unknown>;
			} catch {
				body = { text };
			}
			return { status: response.status, body };
		}

		it('two runs at once: each failed person gets the SMS exactly once, opted-out and other people none; rows say sent <id>', async () => {
			const failed = Array.from(
				{ length: 12 },
				(_, index) => `+2547960001${String(index).padStart(2, '0')}`,
			);
			const optedOut = ['+254796000201', '+254796000202'];
			await deliveries.insert([
				...failed.map((phone, index) =>
					whatsapp('fb', phone, 'failed', index % 2 === 0 ? '' : undefined),
				),
				...optedOut.map((phone) => whatsapp('fb', phone, 'failed')),
				// Delivered, read, still accepted: not failed, no SMS.
				whatsapp('fb', '+254796000301', 'delivered'),
				whatsapp('fb', '+254796000302', 'read'),
				whatsapp('fb', '+254796000303', 'accepted'),
				// Another campaign's failure, and an SMS of this one that failed: not this fallback's.
				whatsapp('other', '+254796000304', 'failed'),
				{ ...whatsapp('fb', '+254796000305', 'failed'), channel: 'sms' },
				// Tried before: sent or maybe sent are never tried again.
				whatsapp('fb', '+254796000306', 'failed', 'sent 1f0c2e6a-0000-4000-8000-000000000001'),
				whatsapp('fb', '+254796000307', 'failed', 'maybe sent'),
			]);
			const list = await optOutList(n8n.rest);
			// One written as the opt-out workflow does, one by hand in national form.
			await list.record(optedOut[0], 'opted out');
			await list.record('0796 000 202', 'opted out');

			const [first, second] = await Promise.all([submit('fb'), submit('fb')]);
			expect([first.status, second.status]).toEqual([200, 200]);
			// Counted at the sandbox: each failed person once, nobody else (opted out, tried before,
			// delivered, another campaign's, an SMS of this one).
			const sent = smsPerPhone();
			expect(Object.fromEntries(sent)).toEqual(
				Object.fromEntries(failed.map((phone) => [phone.replace(/\D/g, ''), 1])),
			);
			// Each run's summary adds up; between them they sent the 12 (the opted-out two may be
			// looked at by both: a "not sent" row is free again once the first run wrote it).
			const answers = [first.body, second.body];
			for (const answer of answers)
				expect(Number(answer.tried)).toBe(
					Number(answer.sent) +
						Number(answer.maybeSent) +
						Number(answer.notSent) +
						Number(answer.optedOut),
				);
			expect(answers.map((answer) => Number(answer.sent)).reduce((a, b) => a + b)).toBe(12);
			expect(answers.map((answer) => Number(answer.maybeSent) + Number(answer.notSent))).toEqual([
				0, 0,
			]);
			expect(String(first.body.formSubmittedText)).toMatch(/^SMS fallback for fb: \d+ tried/);
			const rows = await deliveries.rows();
			const fallbackOf = (phone: string) =>
				rows
					.filter(
						(row) => row.phone === phone && row.campaign === 'fb' && row.channel === 'whatsapp',
					)
					.map((row) => row.fallback);
			const smsIds = new Map(
				n8n.sandbox.state.smsMessages.map((message) => [message.number, message.id]),
			);
			for (const phone of failed) expect(fallbackOf(phone)).toEqual([`sent ${smsIds.get(phone)}`]);
			for (const phone of optedOut) expect(fallbackOf(phone)).toEqual(['not sent (opted out)']);
			expect(fallbackOf('+254796000301')).toEqual([null]);
			// Each SMS is a row of the deliveries like the campaign's own messages, for its reports.
			const smsRows = rows.filter((row) => row.campaign === 'fb' && row.batch === 'sms fallback');
			expect(
				smsRows.map((row) => [row.phone, row.messageId, row.channel, row.status, row.rank]).sort(),
			).toEqual(failed.map((phone) => [phone, smsIds.get(phone), 'sms', 'accepted', 0]).sort());
			expect(fallbackOf('+254796000307')).toEqual(['maybe sent']);

			// A third run finds nobody new: nothing sent, the opted-out tried again and skipped again.
			const third = await submit('fb');
			expect(third.body).toMatchObject({ sent: 0, maybeSent: 0, optedOut: 2 });
			expect(n8n.sandbox.state.smsMessages).toHaveLength(12);
		});

		it('five runs at once: each of 20 failed people gets the SMS exactly once', async () => {
			const failed = Array.from(
				{ length: 20 },
				(_, index) => `+2547960006${String(index).padStart(2, '0')}`,
			);
			await deliveries.insert(failed.map((phone) => whatsapp('five', phone, 'failed', '')));
			const answers = await Promise.all(Array.from({ length: 5 }, () => submit('five')));
			expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
			expect(Object.fromEntries(smsPerPhone())).toEqual(
				Object.fromEntries(failed.map((phone) => [phone.replace(/\D/g, ''), 1])),
			);
			expect(answers.map((answer) => Number(answer.body.sent)).reduce((a, b) => a + b)).toBe(20);
		});

		it('a number SMSLeopard refuses is "not sent (why)" and the next run tries it again; one opted back in is sent then', async () => {
			await deliveries.insert([
				whatsapp('nf', '+2547', 'failed'),
				whatsapp('nf', '+254796000401', 'failed'),
			]);
			const list = await optOutList(n8n.rest);
			await list.record('+254796000401', 'opted out');
			const first = await submit('nf');
			expect(first.body).toMatchObject({ tried: 2, sent: 0, notSent: 1, optedOut: 1 });
			let rows = (await deliveries.rows()).filter((row) => row.campaign === 'nf');
			expect(rows.find((row) => row.phone === '+2547')?.fallback).toMatch(/^not sent \(.+\)$/);
			await list.record('+254796000401', 'opted in');
			const second = await submit('nf');
			expect(second.body).toMatchObject({ tried: 2, sent: 1, notSent: 1, optedOut: 0 });
			expect(Object.fromEntries(smsPerPhone())).toEqual({ '254796000401': 1 });
			rows = (await deliveries.rows()).filter((row) => row.campaign === 'nf');
			expect(rows.find((row) => row.phone === '+254796000401')?.fallback).toMatch(/^sent /);
		});

		it('the form without its login: 401 and nothing claimed or sent', async () => {
			await deliveries.insert([whatsapp('stranger', '+254796000501', 'failed')]);
			expect((await submit('stranger', '')).status).toBe(401);
			const wrong = `Basic ${Buffer.from(`${TEST_FORM_LOGIN.user}:guessed`).toString('base64')}`;
			expect((await submit('stranger', wrong)).status).toBe(401);
			await new Promise((resolve) => setTimeout(resolve, 1000));
			expect(n8n.sandbox.state.smsMessages).toEqual([]);
			const rows = (await deliveries.rows()).filter((row) => row.campaign === 'stranger');
			expect(rows.map((row) => row.fallback ?? null)).toEqual([null]);
		});
	},
);
