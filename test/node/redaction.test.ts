/**
 * A server or proxy that echoes the request's Authorization header (and the key and secret decoded
 * from it) in its error answers: the node's errors, error descriptions and output items must hold
 * none of the API key, the API secret or the Basic token. The sandbox's `echoRequestHeaders` knob
 * plays that server.
 */
import { type RunNodeResult } from '../harness';
import { flowSendParameters, jsonItems, useNodeEnv } from './support';

const env = useNodeEnv({ echoRequestHeaders: true });

const WRONG_SECRET = 'wrong-secret-echoed-back-5120';
const parameters = {
	...flowSendParameters,
};

function everything(result: RunNodeResult): string {
	const { error } = result;
	return JSON.stringify({ outputs: result.outputs, error, stack: error?.stack });
}

function expectNoCredential(text: string, apiSecret: string): void {
	const apiKey = env.credentials.smsLeopardApi.apiKey;
	const token = Buffer.from(`${apiKey}:${apiSecret}`).toString('base64');
	expect(text).toContain('[redacted]');
	expect(text).not.toContain(token);
	expect(text).not.toContain(apiKey);
	expect(text).not.toContain(apiSecret);
}

describe('A server that echoes the Authorization header', () => {
	it('the echo really carries the credential (the knob works)', async () => {
		const { chatUrl, apiKey } = env.credentials.smsLeopardApi;
		const token = Buffer.from(`${apiKey}:${WRONG_SECRET}`).toString('base64');
		const answer = await fetch(`${chatUrl}/v1/phone_number_ids`, {
			headers: { authorization: `Basic ${token}` },
		});
		const body = await answer.text();
		expect(answer.status).toBe(401);
		expect(body).toContain(token);
		expect(body).toContain(`${apiKey}:${WRONG_SECRET}`);
	});

	it.each([
		['stops the run', {}],
		['Continue (regular output)', { continueOnFail: true }],
		['Continue (using error output)', { onError: 'continueErrorOutput' as const }],
	])('%s: no key, secret or token in the error or the items', async (_name, mode) => {
		const result = await env.run(
			parameters,
			jsonItems({ phone: '+254700600001' }, { phone: '+254700600002' }),
			{ ...mode, apiSecret: WRONG_SECRET },
		);
		const text = everything(result);
		expect(text).toContain('HTTP 401');
		expectNoCredential(text, WRONG_SECRET);
	});

	it('a 404 from the Contacts API with the right credential: nothing of it in the error', async () => {
		const result = await env.run(
			{ resource: 'contact', operation: 'delete', contactId: '987654' },
			jsonItems({}),
		);
		expect(result.error?.message).toContain('HTTP 404');
		expectNoCredential(everything(result), env.credentials.smsLeopardApi.apiSecret);
	});
});
