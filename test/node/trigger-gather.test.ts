/**
 * Gather Posts: reports arriving together start one execution, and no post is answered 200 before
 * the execution holding its events started. Run in n8n-core's real WebhookContext; n8n's answer to
 * the leading post (started, failed, connection closed) as its webhook handler gives it.
 */
import { MOST_GATHERED_EVENTS } from '../../nodes/SmsLeopardTrigger/gather';
import { whatsappStatusBody } from '../queue/campaign/delivery-reports';
import { WEBHOOK_SECRET, type PostOptions, post } from './trigger-support';

const statusPost = (ids: string[], status = 'delivered') =>
	JSON.parse(whatsappStatusBody(ids.map((id) => ({ id, status })))) as Record<string, unknown>;

const withSecret = (body: Record<string, unknown>) => ({ ...body, status_secret: WEBHOOK_SECRET });

const workflow = () => `wf-gather-${Math.random().toString(36).slice(2)}`;

/** Posts one report per id at once to one trigger; what each post got. */
async function postTogether(ids: string[], options: PostOptions) {
	return await Promise.all(ids.map((id) => post(withSecret(statusPost([id])), options)));
}

const ids = (answers: Awaited<ReturnType<typeof postTogether>>) =>
	answers.flatMap((answer) => answer.items.map((item) => item.messageId));

describe('SMSLeopard Trigger: Gather Posts', () => {
	it('five posts within the window start one execution with the five events in arrival order; each other post is answered 200 once it started', async () => {
		const answers = await postTogether(['m1', 'm2', 'm3', 'm4', 'm5'], {
			workflowId: workflow(),
			parameters: { options: { gatherMs: 200 } },
		});
		const started = answers.filter((answer) => answer.result.workflowData);
		expect(started).toHaveLength(1);
		expect(ids(started)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
		const followers = answers.filter((answer) => !answer.result.workflowData);
		expect(followers.map((answer) => [answer.result.noWebhookResponse, answer.status])).toEqual(
			Array(4).fill([true, 200]),
		);
	});

	it('without the option (as saved before it): one execution per post', async () => {
		const answers = await postTogether(['a1', 'a2', 'a3'], { workflowId: workflow() });
		expect(answers.map((answer) => answer.items.map((item) => item.messageId))).toEqual([
			['a1'],
			['a2'],
			['a3'],
		]);
	});

	it.each([
		['failed', 'n8n could not start it (500)'],
		['closed', 'the connection closed before n8n answered'],
	] as const)(
		'the gathered execution %s (%s): the others get 503, and their reports posted again are taken, not dropped as repeats',
		async (n8nAnswers, _why) => {
			const id = workflow();
			const options = { workflowId: id, parameters: { options: { gatherMs: 200 } } };
			const [leader, ...followers] = await Promise.all([
				post(withSecret(statusPost(['x1'])), { ...options, n8nAnswers }),
				...['x2', 'x3'].map((message) => post(withSecret(statusPost([message])), options)),
			]);
			expect(ids([leader])).toEqual(['x1', 'x2', 'x3']);
			expect(followers.map((answer) => answer.status)).toEqual([503, 503]);
			expect(String((followers[0].body as { message: string }).message)).toContain('post it again');
			// SMSLeopard posts them again, the leading one too: all three are taken.
			const again = await postTogether(['x1', 'x2', 'x3'], options);
			expect(ids(again)).toEqual(['x1', 'x2', 'x3']);
			expect(again.filter((answer) => !answer.result.workflowData).map((a) => a.status)).toEqual([
				200, 200,
			]);
		},
	);

	it('"Listen for test event" (manual mode) takes each post by itself, at once, even with a long window', async () => {
		const answers = await postTogether(['t1', 't2'], {
			workflowId: workflow(),
			parameters: { options: { gatherMs: 60_000 } },
			mode: 'manual',
		});
		expect(answers.map((answer) => answer.items.map((item) => item.messageId))).toEqual([
			['t1'],
			['t2'],
		]);
	});

	it('a repeat of a report taken and started is still dropped', async () => {
		const options = { workflowId: workflow(), parameters: { options: { gatherMs: 100 } } };
		expect(ids(await postTogether(['r1', 'r2'], options))).toEqual(['r1', 'r2']);
		const again = await postTogether(['r1', 'r2'], options);
		expect(ids(again)).toEqual([]);
		expect(again.map((answer) => answer.status)).toEqual([200, 200]);
	});

	it(`a window that reaches ${MOST_GATHERED_EVENTS} events starts at once, without waiting the window out`, async () => {
		const options = { workflowId: workflow(), parameters: { options: { gatherMs: 60_000 } } };
		const half = MOST_GATHERED_EVENTS / 2;
		const many = (prefix: string, count: number) =>
			Array.from({ length: count }, (_, index) => `${prefix}${index}`);
		const answers = await Promise.all([
			post(withSecret(statusPost(many('f', half))), options),
			post(withSecret(statusPost(many('g', half))), options),
		]);
		expect(answers[0].items).toHaveLength(MOST_GATHERED_EVENTS);
		expect(answers[1].status).toBe(200);
	}, 10_000);
});
