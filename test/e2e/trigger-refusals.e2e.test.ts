/**
 * A refused post is visible where a marketer looks, in real n8n with the packed package: with
 * Report Refused Posts as saved by default (a workflow that never set it), a flood of refused posts
 * starts one execution per reason, on the trigger's second output, saying why and never what the
 * post carried; n8n's log names the workflow by id and name. Version 1 and 2 alike.
 */
import { packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { reportsWorkflow, reportsWorkflowV2 } from './workflows/trigger';

const tarball = packedForThisFile();
const SECRET = 'refusals-e2e-secret-6b13';
const GUESS = 'strangers-guess-e2e-77';

describe.each(selectedVersions())('SMSLeopard Trigger refused posts in n8n %s', (version) => {
	const n8n = useServedN8n(version, tarball, { credentialName: 'SMSLeopard sandbox' });

	it.each([1, 2])(
		'version %s as saved without the option: one execution per reason on Refused Posts, the log names the workflow',
		async (typeVersion) => {
			const name = `refusals v${typeVersion} ${Math.random().toString(36).slice(2)}`;
			const trigger =
				typeVersion === 1
					? reportsWorkflow(name, SECRET)
					: reportsWorkflowV2(
							name,
							await n8n.rest.createCredential(`SMSLeopard ${name}`, 'smsLeopardApi', {
								...n8n.sandbox.credentialData,
								webhookSecret: SECRET,
							}),
						);
			expect(JSON.stringify(trigger.json)).not.toContain('reportRefusedPosts');
			const projectId = await n8n.rest.personalProjectId();
			const id = await n8n.rest.activateWorkflow({ ...trigger.json, projectId });
			const url = `${n8n.server.url}${trigger.path}`;
			// Registered once the subscription check (GET, starts nothing) stops answering 404.
			for (let attempt = 0; attempt < 60; attempt++) {
				if ((await fetch(url)).status !== 404) break;
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
			const post = async (headers: Record<string, string>) =>
				(
					await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json', ...headers },
						body: JSON.stringify({ id: 'refused-1', status: 'DELIVRD', customer: 'Zawadi Akinyi' }),
					})
				).status;
			const statuses: number[] = [];
			for (let index = 0; index < 10; index++)
				statuses.push(await post({ 'x-status-secret': GUESS }));
			for (let index = 0; index < 10; index++) statuses.push(await post({}));
			expect(statuses.every((status) => status === 401)).toBe(true);
			// A moment for any execution beyond the two to appear.
			await new Promise((resolve) => setTimeout(resolve, 3000));
			const settled = await n8n.rest.settledExecutions(id, 2);
			expect(settled).toHaveLength(2);
			const items = [];
			for (const entry of settled) {
				const detail = await n8n.rest.execution(entry.id);
				expect(detail.status).toBe('success');
				const outputs = detail.runData['SMSLeopard Trigger']?.[0]?.data?.main ?? [];
				expect(outputs[0] ?? []).toEqual([]);
				items.push(...(outputs[1] ?? []).map((item) => item.json as Record<string, unknown>));
			}
			expect(items.map((item) => item.reason).sort()).toEqual(['noSecret', 'wrongSecret']);
			expect(items.find((item) => item.reason === 'wrongSecret')).toMatchObject({
				refused: true,
				presentedIn: ['header x-status-secret'],
			});
			const text = JSON.stringify(items);
			for (const carried of [GUESS, SECRET, 'Zawadi', 'refused-1'])
				expect(text).not.toContain(carried);
			const logs = n8n.server.logs();
			expect(logs).toContain(`of workflow "${name}" (id ${id}) refused a post with 401`);
			expect(logs).not.toContain(GUESS);
		},
		120_000,
	);
});
