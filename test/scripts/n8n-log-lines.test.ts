/** `npm start` prints n8n's log line by line as it comes, even when a line arrives in pieces. */
import { n8nLogLines } from '../../scripts/n8n-log-lines';

describe("n8n's log in npm start's terminal", () => {
	it('prints each whole line once, prefixed, however the output is cut into chunks', () => {
		const printed: string[] = [];
		const take = n8nLogLines((line) => printed.push(line));
		take('SMSLeopard Trigger "SMSLeopard Trigger" of workflow "Reports" (id 7) refused a po');
		expect(printed).toEqual([]);
		take('st with 401: the post carries no secret\r\n\nWorkflow "X" could not be activated\nhalf');
		expect(printed).toEqual([
			'n8n | SMSLeopard Trigger "SMSLeopard Trigger" of workflow "Reports" (id 7) refused a post with 401: the post carries no secret',
			'n8n | Workflow "X" could not be activated',
		]);
		take(' a line\n');
		expect(printed[2]).toBe('n8n | half a line');
	});
});
