/**
 * A refused post is visible where a marketer looks: Report Refused Posts (on by default, also for
 * triggers saved before it existed) starts an execution with one item on the second output,
 * Refused Posts, saying why and where the secret was looked for, never the body or the secret; at
 * most one a minute per trigger and reason, the minute kept in the workflow's static data. Run in
 * n8n-core's real WebhookContext; the outputs from n8n-workflow's own resolver.
 */
import { NodeHelpers } from 'n8n-workflow';
import { SmsLeopardTrigger } from '../../nodes/SmsLeopardTrigger/SmsLeopardTrigger.node';
import { forgetReports } from '../../nodes/SmsLeopardTrigger/refusal-report';
import { WEBHOOK_SECRET, post, triggerInWorkflow } from './trigger-support';

const report = { id: 'r1', status: 'DELIVRD', customer: 'Zawadi Akinyi' };
const GUESS = 'a-strangers-guess-42';

const refusedItems = (answer: Awaited<ReturnType<typeof post>>) =>
	(answer.result.workflowData?.[1] ?? []).map((item) => item.json);

describe('Report Refused Posts', () => {
	it('a wrong secret: 401, and one item on Refused Posts with the reason and the places', async () => {
		const answer = await post(report, { headers: { 'x-status-secret': GUESS } });
		expect(answer.status).toBe(401);
		expect(answer.items).toEqual([]);
		const [item] = refusedItems(answer);
		expect(item).toMatchObject({
			refused: true,
			reason: 'wrongSecret',
			message: 'Refused with 401: the post carries a wrong secret',
			secretSetIn: "the Webhook Secret of this trigger's SMSLeopard API credential",
			presentedIn: ['header x-status-secret'],
			contentType: 'application/json',
		});
		expect(item.secretLookedFor).toHaveLength(4);
		expect(JSON.stringify(item.secretLookedFor)).toContain('x-hub-signature-256');
		// Nothing the post carried: not the guess, not the body, not the secret.
		const text = JSON.stringify(item);
		for (const carried of [GUESS, 'Zawadi', 'DELIVRD', 'r1', WEBHOOK_SECRET]) {
			expect(text).not.toContain(carried);
		}
	});

	it('the secret pinned elsewhere, and no secret set: each its own reason and words', async () => {
		const pinned = await post(report, {
			headers: { 'x-status-secret': WEBHOOK_SECRET },
			parameters: { options: { secretIn: 'signature' } },
		});
		expect(refusedItems(pinned)[0]).toMatchObject({ reason: 'elsewhere' });
		expect(refusedItems(pinned)[0].secretLookedFor).toEqual([expect.stringContaining('signature')]);
		const unset = await post({ ...report, status_secret: 'x' }, { webhookSecret: '' });
		expect(refusedItems(unset)[0]).toMatchObject({
			reason: 'noSecretSet',
			message: expect.stringContaining('credential has no Webhook Secret'),
			presentedIn: ['body field status_secret'],
		});
	});

	it('a flood: one execution a minute per reason; the next reported one counts the others', async () => {
		const workflowId = 'flooded-refusals';
		const staticData: Record<string, unknown> = {};
		const answers = [];
		for (let index = 0; index < 20; index++) {
			answers.push(await post(report, { workflowId, staticData }));
		}
		expect(answers.every((answer) => answer.status === 401)).toBe(true);
		expect(answers.filter((answer) => refusedItems(answer).length > 0)).toHaveLength(1);
		// Another reason is reported on its own.
		const wrong = await post(report, {
			workflowId,
			staticData,
			headers: { 'x-status-secret': GUESS },
		});
		expect(refusedItems(wrong)).toHaveLength(1);
		// A minute later, the next is reported with the 19 not reported.
		const minuteLater = Date.now() + 61_000;
		const clock = jest.spyOn(Date, 'now').mockReturnValue(minuteLater);
		try {
			const later = await post(report, { workflowId, staticData });
			expect(refusedItems(later)[0]).toMatchObject({ refusedBeforeUnreported: 19 });
			const saved = staticData['node:SMSLeopard Trigger'] as Record<string, unknown>;
			expect(saved.refusalReportedAt).toMatchObject({ noSecret: minuteLater });
		} finally {
			clock.mockRestore();
		}
	});

	it('the minute is kept in the static data n8n saves: a restart (memory gone) keeps it', async () => {
		const workflowId = 'restarted-refusals';
		const staticData: Record<string, unknown> = {};
		expect(refusedItems(await post(report, { workflowId, staticData }))).toHaveLength(1);
		forgetReports(`${workflowId}:${workflowId}-node`);
		expect(refusedItems(await post(report, { workflowId, staticData }))).toHaveLength(0);
		// Without the static data (a new workflow copy), the memory alone would have let it through.
		expect(refusedItems(await post(report, { workflowId: 'another-trigger' }))).toHaveLength(1);
	});

	it('off: 401 and no execution at all', async () => {
		const answer = await post(report, { parameters: { reportRefusedPosts: false } });
		expect(answer.status).toBe(401);
		expect(answer.result.workflowData).toBeUndefined();
	});

	it('an accepted post starts the workflow on Events only', async () => {
		const answer = await post({ ...report, status_secret: WEBHOOK_SECRET });
		expect(answer.result.workflowData).toHaveLength(1);
		expect(answer.items).toHaveLength(1);
	});

	it('the log line names the workflow by id and name, and the node', async () => {
		const answer = await post(report, {
			workflowId: 'wf-named-42',
			workflowName: 'Delivery reports Nairobi',
			headers: { 'x-status-secret': GUESS },
		});
		expect(answer.warnings[0].message).toBe(
			'SMSLeopard Trigger "SMSLeopard Trigger" of workflow "Delivery reports Nairobi" (id wf-named-42) refused a post with 401: the post carries a wrong secret',
		);
		expect(answer.warnings[0].meta).toMatchObject({
			workflowId: 'wf-named-42',
			workflowName: 'Delivery reports Nairobi',
		});
	});
});

describe('triggers saved before Report Refused Posts existed', () => {
	const trigger = new SmsLeopardTrigger();
	const outputsOf = (typeVersion: number, parameters: Record<string, unknown>) => {
		const { workflow, node } = triggerInWorkflow(typeVersion, parameters);
		return NodeHelpers.getNodeOutputs(workflow, node, trigger.description).map((output) =>
			typeof output === 'string' ? output : output.displayName,
		);
	};

	it.each([1, 2])(
		'version %s as saved (no such parameter): the option is on, two outputs, refusals reported',
		async (typeVersion) => {
			const saved = typeVersion === 1 ? { secret: 'saved-v1-secret' } : {};
			expect(outputsOf(typeVersion, saved)).toEqual(['Events', 'Refused Posts']);
			const answer = await post(report, typeVersion === 1 ? { v1Secret: 'saved-v1-secret' } : {});
			expect(answer.status).toBe(401);
			expect(refusedItems(answer)).toEqual([
				expect.objectContaining({
					reason: 'noSecret',
					secretSetIn:
						typeVersion === 1
							? "this trigger's Secret field"
							: "the Webhook Secret of this trigger's SMSLeopard API credential",
				}),
			]);
		},
	);

	it('turned off: one output, Events', () => {
		expect(outputsOf(2, { reportRefusedPosts: false })).toEqual(['Events']);
	});
});
