/**
 * The campaign of examples/ in regular mode (`n8n start`, SQLite, no workers): the three files as
 * shipped, started on their webhooks the way a script, a scheduler or a stranger would. Every
 * claim is checked per phone on the sandbox's log of what it sent: nobody twice, however the runs
 * overlap. Queue mode runs the same workflows in test/queue/campaign.queue.test.ts.
 */
import { packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { EXAMPLE_CREDENTIAL_NAME } from './workflows/examples';
import {
	BATCH_FILE,
	CAMPAIGN_FILE,
	type CampaignTable,
	campaignTableColumns,
	campaignWorkflow,
	createCampaignKey,
	findCampaignTable,
	postJson,
	sendsPerPhone,
	startListServer,
	webhookPath,
} from '../queue/campaign/campaign-kit';
import { campaignSafetyCases } from '../queue/campaign/safety-cases';

const tarball = packedForThisFile();

// The campaign creates its table with n8n 2's Data table node (n8n 1.x: by hand, see its note).
describe.each(selectedVersions().filter((version) => !version.startsWith('1.')))(
	'n8n %s, regular mode',
	(version) => {
		const n8n = useServedN8n(version, tarball, {
			credentialName: EXAMPLE_CREDENTIAL_NAME,
			sandboxOptions: { latencyMs: 5 },
		});
		let lists: Awaited<ReturnType<typeof startListServer>>;
		let campaignUrl: string;
		let batchUrl: string;
		let campaignId: string;

		beforeAll(async () => {
			lists = await startListServer();
			const key = await createCampaignKey(n8n.rest);
			const options = { key, settings: { callerMaySetListLink: true } };
			await n8n.rest.activateWorkflow(
				campaignWorkflow(
					BATCH_FILE,
					n8n.credential,
					{ requestsPerSecond: 200 },
					undefined,
					options,
				),
			);
			campaignId = await n8n.rest.activateWorkflow(
				campaignWorkflow(CAMPAIGN_FILE, n8n.credential, {}, undefined, options),
			);
			campaignUrl = `${n8n.server.url}/webhook/${webhookPath(CAMPAIGN_FILE, 'Campaign Webhook')}`;
			batchUrl = `${n8n.server.url}/webhook/${webhookPath(BATCH_FILE, 'Batch Webhook')}`;
		}, 120_000);
		afterAll(async () => await lists?.stop());

		const people = (count: number, prefix: string) =>
			Array.from({ length: count }, (_, index) => ({
				phone: `${prefix}${String(index).padStart(5, '0')}`,
				name: `Customer ${index}`,
			}));
		const sent = () => n8n.sandbox.state.sentMessages.map((message) => message.destination);
		const start = (campaign: string, list: string, extra: Record<string, unknown> = {}) =>
			postJson(campaignUrl, { campaign, recipientsUrl: lists.url(list), ...extra });

		/** Waits until no batch of the campaign is queued or sending and the sandbox took nothing for 1.5 s. */
		async function settled(campaign: string): Promise<CampaignTable> {
			const deadline = Date.now() + 90_000;
			let [count, quietSince] = [-1, Date.now()];
			while (Date.now() < deadline) {
				if (sent().length !== count) [count, quietSince] = [sent().length, Date.now()];
				const table = await findCampaignTable(n8n.rest);
				const rows = (await table?.rows(campaign))?.filter((row) => row.batch !== 'claim') ?? [];
				if (
					rows.length > 0 &&
					rows.every((row) => row.status === 'done') &&
					Date.now() - quietSince > 1500
				)
					return table!;
				await new Promise((resolve) => setTimeout(resolve, 300));
			}
			throw new Error(`campaign ${campaign} did not settle: ${n8n.server.logs().slice(-2000)}`);
		}

		it('the webhook answers at once (202, the name, how to follow); the table is made with its types; each person once; a rerun sends nothing', async () => {
			const list = people(60, '+2547910');
			lists.put('first', list);
			const answer = await start('first', 'first');
			expect(answer.status).toBe(202);
			expect(answer.body).toMatchObject({
				accepted: true,
				campaign: 'first',
				follow: { campaign: 'first', checkOnly: true },
			});
			const table = await settled('first');
			expect(await campaignTableColumns(table, n8n.rest)).toMatchObject({
				campaign: 'string',
				batch: 'string',
				status: 'string',
				recipients: 'string',
				sent: 'string',
				maybeSent: 'string',
				notSent: 'string',
				sentCount: 'number',
				maybeSentCount: 'number',
				notSentCount: 'number',
				cost: 'number',
			});
			expect([...sendsPerPhone(sent()).values()]).toEqual(list.map(() => 1));
			const check = await start('first', 'first', { checkOnly: true });
			expect(check.status).toBe(200);
			expect(check.body).toMatchObject({
				state: 'checked',
				sent: 60,
				maybeSent: 0,
				notSent: 0,
				stillQueued: 0,
				toSend: 0,
			});
			expect(check.body.costSoFar).toBeGreaterThan(0);
			const rerun = await start('first', 'first');
			expect(rerun.status).toBe(202);
			await new Promise((resolve) => setTimeout(resolve, 3000));
			expect(sent()).toHaveLength(60);
			// Successful production runs are not kept: the table is the record.
			expect(await n8n.rest.executionCount(campaignId)).toBe(0);
		});

		it('a list that cannot be read: the run frees its claim and fails with the reason, so the next start is accepted, not refused', async () => {
			const answer = await start('unreadable', 'no-such-list');
			expect(answer.status).toBe(202);
			const deadline = Date.now() + 30_000;
			let claim: string | undefined;
			while (Date.now() < deadline && claim !== 'free') {
				await new Promise((resolve) => setTimeout(resolve, 300));
				const table = await findCampaignTable(n8n.rest);
				claim = (await table?.rows('unreadable'))?.find((row) => row.batch === 'claim')?.status;
			}
			expect(claim).toBe('free');
			const [failed] = await n8n.rest.settledExecutions(campaignId, 1);
			expect(failed.status).toBe('error');
			lists.put('no-such-list', people(3, '+2547980'));
			expect((await start('unreadable', 'no-such-list')).status).toBe(202);
			// Its three sends end here, not in the next test.
			for (let wait = 0; wait < 100 && sent().length < 3; wait++)
				await new Promise((resolve) => setTimeout(resolve, 300));
			expect(sent()).toHaveLength(3);
		});

		campaignSafetyCases(it, {
			campaignUrl: () => campaignUrl,
			batchUrl: () => batchUrl,
			putList: (name, rows, delayMs) => lists.put(name, rows, delayMs),
			listUrl: (name) => lists.url(name),
			sent,
			table: () => findCampaignTable(n8n.rest),
		});
	},
);
