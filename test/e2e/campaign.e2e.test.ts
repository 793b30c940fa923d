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
	sentTwice,
	startListServer,
	webhookPath,
} from '../queue/campaign/campaign-kit';

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
				console.log(JSON.stringify(await table?.rows(campaign)).slice(0, 1500));
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

		it('a stranger without the key gets 403 and starts nothing; a caller may not choose where batches go', async () => {
			lists.put('stranger', people(20, '+2547990'));
			for (const key of [null, 'a-guessed-key']) {
				const answer = await postJson(
					campaignUrl,
					{ campaign: 'stranger', recipientsUrl: lists.url('stranger') },
					key,
				);
				expect(answer.status).toBe(403);
				const batch = await postJson(
					batchUrl,
					{ campaign: 'stranger', batch: '1-1', recipients: people(20, '+2547990') },
					key,
				);
				expect(batch.status).toBe(403);
			}
			const redirected = await start('stranger', 'stranger', {
				batchWorkflowUrl: 'https://example.org/steal',
			});
			expect(redirected.status).toBe(400);
			expect(String(redirected.body.error)).toContain('batchWorkflowUrl');
			await new Promise((resolve) => setTimeout(resolve, 2000));
			expect(sent()).toEqual([]);
			const table = await findCampaignTable(n8n.rest);
			expect((await table?.rows('stranger')) ?? []).toEqual([]);
		});

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

		/** After the runs settle and one more run: each of `list` sent exactly once, nobody twice. */
		async function exactlyOnceAfterOneMoreRun(campaign: string, count: number) {
			await settled(campaign);
			expect(sentTwice(sent())).toEqual([]);
			expect((await start(campaign, campaign)).status).toBe(202);
			await settled(campaign);
			await new Promise((resolve) => setTimeout(resolve, 1500));
			expect(sentTwice(sent())).toEqual([]);
			expect(sendsPerPhone(sent()).size).toBe(count);
		}

		it.each([2, 5])(
			'%i starts at once of a campaign run before: one plans, the others answer at once with where it stands (409); nobody twice',
			async (starts) => {
				const name = `together-${starts}`;
				const list = people(200, `+25479${starts}0`);
				lists.put(name, list.slice(0, 1));
				await start(name, name);
				await settled(name);
				lists.put(name, list);
				const answers = await Promise.all(Array.from({ length: starts }, () => start(name, name)));
				for (const answer of answers) expect([202, 409]).toContain(answer.status);
				expect(answers.filter((answer) => answer.status === 202).length).toBeGreaterThan(0);
				for (const answer of answers.filter((entry) => entry.status === 409))
					expect(answer.body).toMatchObject({
						state: 'claimed',
						campaign: name,
						sent: expect.any(Number),
					});
				await exactlyOnceAfterOneMoreRun(name, 200);
			},
		);

		it('five first starts at once of a new campaign: nobody twice; after one more run everyone exactly once', async () => {
			lists.put('first-five', people(200, '+2547960'));
			const answers = await Promise.all(
				[1, 2, 3, 4, 5].map(() => start('first-five', 'first-five')),
			);
			for (const answer of answers) expect([202, 409]).toContain(answer.status);
			await exactlyOnceAfterOneMoreRun('first-five', 200);
		});

		it('a client that gives up after 50 ms and posts again: nobody twice; after one more run everyone exactly once', async () => {
			lists.put('impatient', people(200, '+2547970'));
			await start('impatient', 'impatient', { checkOnly: true });
			const impatient = new AbortController();
			setTimeout(() => impatient.abort(), 50);
			const gaveUp = await postJson(
				campaignUrl,
				{ campaign: 'impatient', recipientsUrl: lists.url('impatient') },
				undefined,
				impatient.signal,
			).catch((error: Error) => error.name);
			expect(gaveUp).toBe('AbortError');
			expect([202, 409]).toContain((await start('impatient', 'impatient')).status);
			await exactlyOnceAfterOneMoreRun('impatient', 200);
		});

		it('a batch posted twice at once is sent once; a forged batch post sends only to the numbers the campaign recorded in it', async () => {
			const list = people(40, '+2547930');
			lists.put('forged', list);
			await start('forged', 'forged');
			const table = await settled('forged');
			const before = sent().length;
			// Repeated: a done batch posted again twice at once, with its own recipients.
			const [row] = (await table.rows('forged')).filter((entry) => entry.batch !== 'claim');
			const repeat = { campaign: 'forged', batch: row.batch, recipients: list };
			await Promise.all([postJson(batchUrl, repeat), postJson(batchUrl, repeat)]);
			// A queued batch posted twice at once, naming strangers beside its recorded people.
			await table.insert({
				campaign: 'forged',
				batch: 'forged-x',
				status: 'queued',
				recipients: '+254793099990,+254793099991',
			});
			const strangers = people(5, '+2547931');
			const forged = {
				campaign: 'forged',
				batch: 'forged-x',
				recipients: [...strangers, { phone: '+254793099990', name: 'Recorded' }],
			};
			await Promise.all([postJson(batchUrl, forged), postJson(batchUrl, forged)]);
			await settled('forged');
			await new Promise((resolve) => setTimeout(resolve, 2000));
			const after = sent()
				.slice(before)
				.map((phone) => phone.replace(/\D/g, ''));
			expect(after.sort()).toEqual(['254793099990', '254793099991']);
			expect(sentTwice(sent())).toEqual([]);
		});
	},
);
