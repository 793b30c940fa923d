/**
 * A marketer finds the node by what they want to do: n8n's nodes panel searches the node's name,
 * its description and the codex aliases; every operation's words must be among them. The docs link
 * must keep its #operations anchor: n8n appends its tracking query to the codex link (which would
 * turn "#operations" into "#operations?utm_source=…"), but opens an http(s) documentationUrl as it is.
 */
import { readFileSync } from 'fs';
import path from 'path';
import type { INodeProperties } from 'n8n-workflow';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';

const description = new SmsLeopard().description;
const codex = JSON.parse(
	readFileSync(path.join(__dirname, '../../nodes/SmsLeopard/SmsLeopard.node.json'), 'utf8'),
) as { alias: string[]; resources: { primaryDocumentation: Array<{ url: string }> } };
const searchable = [description.displayName, description.description, ...codex.alias]
	.join(' | ')
	.toLowerCase();

const operationSelectors = description.properties.filter(
	(property: INodeProperties) => property.name === 'operation',
);

describe('finding the node', () => {
	it.each([
		'send sms',
		'sms',
		'whatsapp',
		'template',
		'balance',
		'delivery report',
		'contact',
		'upload',
	])('"%s" is among the words the nodes panel searches', (words) => {
		expect(searchable).toContain(words);
	});

	it('every resource is named in the description or the aliases', () => {
		const resources = (
			description.properties.find((property) => property.name === 'resource')?.options ?? []
		).map((option) => ('name' in option ? String(option.name).toLowerCase() : ''));
		expect(resources.length).toBeGreaterThan(5);
		const unnamed = resources.filter((resource) => !searchable.includes(resource));
		expect(unnamed).toEqual([]);
	});

	it('every operation has an action name for the actions list', () => {
		const options = operationSelectors.flatMap((selector) => selector.options ?? []);
		expect(options.length).toBeGreaterThan(8);
		for (const option of options) expect(option).toHaveProperty('action', expect.any(String));
	});

	// "WhatsApp" cannot be in an action: n8n's sentence-case rule would lowercase the brand.
	it('each action says what it does in the words a marketer searches', () => {
		const actions = Object.fromEntries(
			operationSelectors
				.flatMap((selector) => selector.options ?? [])
				.map((option) => [
					'value' in option ? String(option.value) : '',
					String((option as { action?: string }).action),
				]),
		);
		expect(actions.sendSms).toMatch(/SMS/);
		expect(actions.sendTemplate).toMatch(/template message/);
		expect(actions.get).toMatch(/delivery report/);
		expect(actions.getBalance).toMatch(/SMS balance/);
	});

	it('the docs link keeps its #operations anchor whatever n8n appends', () => {
		expect(description.documentationUrl).toMatch(/^https:\/\/.*#operations$/);
		for (const { url } of codex.resources.primaryDocumentation) expect(url).not.toContain('#');
	});
});
