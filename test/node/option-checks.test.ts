/**
 * Request Options and credential fields that expressions fill with something that is not a number
 * (or not a valid value) are refused before any request, named as the editor shows them.
 */
import type { INodeParameters } from 'n8n-workflow';
import { TEMPLATES } from '../sandbox';
import { type NodeEnv, jsonItems, senderLocator, startNodeEnv, templateLocator } from './support';

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());
beforeEach(() => env.sandbox.reset());

const send = (requestOptions: INodeParameters): INodeParameters => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(TEMPLATES.flow.id),
	destination: '+254700000001',
	variablesMode: 'define',
	requestOptions,
});

const INTERNAL_NAMES =
	/parallelCalls|concurrency|maxRateLimitWait|timeoutMs|chatUrl|channel:|NaN|nan/;

describe('Request Options that are not numbers', () => {
	it.each([
		['concurrency', 'Items in Parallel'],
		['timeout', 'Timeout (Seconds)'],
		['maxRateLimitWait', 'Max Wait on Rate Limit (Seconds)'],
		['requestsPerSecond', 'Max Requests per Second'],
	])('"abc" for %s is refused as %s, before any request', async (name, label) => {
		const { error } = await env.run(send({ [name]: 'abc' }), jsonItems({}));
		expect(error?.message).toContain(`Request Options > ${label} must be a number`);
		expect(error?.message).toContain('"abc"');
		expect(error?.message).not.toMatch(INTERNAL_NAMES);
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('a value below the minimum is refused with the minimum', async () => {
		const { error } = await env.run(send({ timeout: 0 }), jsonItems({}));
		expect(error?.message).toContain('Request Options > Timeout (Seconds) must be 1 or more');
		expect(env.sandbox.requests).toHaveLength(0);
	});

	it('a number given as text still works', async () => {
		const { error, items } = await env.run(
			send({ concurrency: '2', timeout: '30', maxRateLimitWait: '10' }),
			jsonItems({}),
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
	});
});

describe('credential fields the client refuses', () => {
	it('a Chat API URL with a query is named as the credential shows it', async () => {
		const { error } = await env.run(send({}), jsonItems({}), {
			chatUrl: `${env.credentials.smsLeopardApi.chatUrl}/?x=1`,
		});
		expect(error?.message).toContain('Chat API URL (SMSLeopard credential)');
		expect(error?.message).not.toMatch(INTERNAL_NAMES);
		expect(env.sandbox.requests).toHaveLength(0);
	});
});
