import { describeTemplate } from '../../nodes/SmsLeopard/client';
import { SENDERS, TEMPLATES } from '../sandbox';
import { type SandboxClient, startSandboxClient } from '../support/sandbox-client';

let env: SandboxClient;

beforeAll(async () => {
	env = await startSandboxClient();
});
afterAll(async () => await env.close());

describe('sender numbers and templates (listings outside the service interface)', () => {
	it('lists sender numbers with both the record id and the phone_number_id', async () => {
		const senders = await env.client.listSenderNumbers();
		expect(senders).toEqual(
			expect.arrayContaining([
				expect.objectContaining({
					id: SENDERS.primary.id,
					phone_number_id: SENDERS.primary.phone_number_id,
				}),
			]),
		);
	});

	it('lists the templates of a sender by its record id and describes what each needs', async () => {
		const templates = await env.client.listTemplates(SENDERS.primary.id);
		const byId = new Map(templates.map((template) => [template.id, describeTemplate(template)]));
		expect(byId.get(TEMPLATES.textHeader.id)).toMatchObject({
			approved: true,
			header: { format: 'TEXT', placeholders: [1] },
			bodyPlaceholders: [1, 2],
		});
		expect(byId.get(TEMPLATES.documentHeader.id)?.header?.format).toBe('DOCUMENT');
		expect(byId.get(TEMPLATES.mixedButtons.id)?.buttons.map((button) => button.kind)).toEqual([
			'QUICK_REPLY',
			'URL',
			'PHONE_NUMBER',
		]);
		expect(byId.get(TEMPLATES.urlButton.id)?.buttons[0]).toMatchObject({
			kind: 'URL',
			urlPlaceholders: [1],
		});
		expect(byId.get(TEMPLATES.pending.id)?.approved).toBe(false);
	});
});

describe('describeTemplate reads undocumented header shapes leniently', () => {
	it.each([
		[{ format: 'IMAGE' }, { format: 'IMAGE', placeholders: [] }],
		[
			{ type: 'text', text: 'Hi {{1}}' },
			{ format: 'TEXT', text: 'Hi {{1}}', placeholders: [1] },
		],
		['VIDEO', { format: 'VIDEO', placeholders: [] }],
		['Hello {{ 2 }}', { format: 'TEXT', text: 'Hello {{ 2 }}', placeholders: [2] }],
		[{ something: 'else' }, null],
		[null, null],
	])('%j', (header, expected) => {
		expect(describeTemplate({ id: 't', header }).header).toEqual(expected);
	});
});
