/**
 * A refused post leaves a trace: one warn line in n8n's log with the reason (no secret, wrong
 * secret, secret in another place, none set), never the secret or the body, at most one a minute
 * per trigger and reason, with the count of the others.
 */
import { logRefusal } from '../../nodes/SmsLeopardTrigger/refusal-log';
import { WEBHOOK_SECRET, post } from './trigger-support';

const report = { id: 'r1', status: 'DELIVRD', customer: 'Zawadi Akinyi' };

describe('each 401 is logged at warn level with its reason', () => {
	it.each([
		['no secret', {}, 'the post carries no secret'],
		['a wrong secret', { headers: { 'x-status-secret': `${WEBHOOK_SECRET}x` } }, 'a wrong secret'],
		[
			'the secret in another place than the one pinned',
			{
				headers: { 'x-status-secret': WEBHOOK_SECRET },
				parameters: { options: { secretIn: 'bodyField' } },
			},
			'in another place than the one set under Options > Secret Presented As',
		],
	])('%s', async (_name, options, words) => {
		const answer = await post(report, options);
		expect(answer.status).toBe(401);
		expect(answer.warnings).toHaveLength(1);
		const line = JSON.stringify(answer.warnings);
		expect(line).toContain('refused a post with 401');
		expect(line).toContain(words);
		expect(line).not.toContain(WEBHOOK_SECRET);
		expect(line).not.toContain('Zawadi');
		expect(line).not.toContain('DELIVRD');
	});

	it('an accepted post logs nothing', async () => {
		const answer = await post({ ...report, status_secret: WEBHOOK_SECRET });
		expect(answer.warnings).toEqual([]);
	});

	it('a flood of refusals: one line a minute per trigger and reason', async () => {
		const workflowId = 'flooded-workflow';
		const answers = [];
		for (let index = 0; index < 50; index++) answers.push(await post(report, { workflowId }));
		expect(answers.every((answer) => answer.status === 401)).toBe(true);
		expect(answers.flatMap((answer) => answer.warnings)).toHaveLength(1);
		// Another reason has its own line: probes without a secret do not hide a wrong one.
		const wrong = await post(report, { workflowId, headers: { 'x-status-secret': 'guess' } });
		expect(wrong.warnings).toHaveLength(1);
		expect(wrong.warnings[0].message).toContain('a wrong secret');
		// Another trigger has its own limit.
		expect((await post(report, { workflowId: 'another-workflow' })).warnings).toHaveLength(1);
	});

	it('after the minute, the next refusal is logged with how many were not', () => {
		const lines: string[] = [];
		const logger = { warn: (message: string) => lines.push(message) } as never;
		const refusal = {
			trigger: 'clocked',
			reason: 'wrongSecret' as const,
			setIn: 'credential' as const,
			workflowId: 'w',
			workflowName: 'Delivery reports',
			nodeName: 'SMSLeopard Trigger',
		};
		const start = 1_000_000;
		expect(logRefusal(logger, refusal, start)).toBe(true);
		for (let second = 1; second < 60; second++) logRefusal(logger, refusal, start + second * 1000);
		expect(lines).toHaveLength(1);
		expect(logRefusal(logger, refusal, start + 60_000)).toBe(true);
		expect(lines[1]).toContain('and 59 more refused in the minute before');
	});
});
