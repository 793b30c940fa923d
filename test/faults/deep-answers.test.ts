// Answers nested 100,000 levels deep, through the plain-Node client against the sandbox behind a
// proxy that deepens its answers: the client returns what the service answered, the deep part cut
// to a marker, and an error answer's deep body becomes a typed error, never a stack overflow.
import { SmsLeopardApiError } from '../../nodes/SmsLeopard/client';
import { MAX_ANSWER_DEPTH, TOO_DEEP } from '../../nodes/SmsLeopard/client/http/answer-depth';
import { type DeepShape, deepJson, startDeepeningProxy } from '../support/deepening-proxy';
import { createNodeClient } from '../support/node-http-transport';
import { startRecordingServer } from '../support/recording-server';
import { type FaultEnv, SENDER, destination, sendTo, startFaultEnv } from './fault-env';
import { TEMPLATES } from '../sandbox';

let env: FaultEnv;
beforeAll(async () => {
	env = await startFaultEnv();
});
afterAll(async () => await env.close());
beforeEach(() => env.sandbox.reset());

function clientAt(chatUrl: string, contactsUrl = chatUrl) {
	return createNodeClient({
		...env.sandbox.credentialData,
		chatUrl,
		contactsUrl,
		retry: { maxRetries: 0 },
	});
}

describe.each<DeepShape>(['objects', 'arrays'])('answers nested 100,000 levels (%s)', (shape) => {
	it('a send answer keeps its message id; the deep field is cut at the limit', async () => {
		const proxy = await startDeepeningProxy(env.sandbox.credentialData.chatUrl, {
			paths: /\/send$/,
			levels: 100_000,
			shape,
		});
		const { client, transport } = clientAt(proxy.url);
		try {
			const result = await sendTo(client, destination(1));
			expect(result.recipients[0].id).toBe(env.sandbox.state.sentMessages[0].id);
			const text = JSON.stringify(result);
			expect(text).toContain(TOO_DEEP);
			expect(text.split('[').length + text.split('{').length).toBeLessThan(4 * MAX_ANSWER_DEPTH);
		} finally {
			transport.close();
			await proxy.close();
		}
	});

	it('an error answer with a deep body is a typed error', async () => {
		const server = await startRecordingServer((_request, response) => {
			response.writeHead(400, { 'content-type': 'application/json' });
			response.end(`{"error":"bad","message":"refused","details":${deepJson(100_000, shape)}}`);
		});
		const { client, transport } = clientAt(server.url);
		try {
			const error = await client
				.sendTemplate({
					phoneNumberId: SENDER,
					templateId: TEMPLATES.flow.id,
					destination: destination(2),
				})
				.then(
					() => undefined,
					(caught: unknown) => caught,
				);
			expect(error).toBeInstanceOf(SmsLeopardApiError);
			expect(JSON.stringify((error as SmsLeopardApiError).body)).toContain(TOO_DEEP);
		} finally {
			transport.close();
			await server.stop();
		}
	});
});
