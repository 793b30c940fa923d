/**
 * A webhook per sign-up, in real n8n with the packed package: workflows activated through the REST
 * API and called on their production URLs, one recipient per execution. The sender and template
 * listings are kept across executions in n8n's process, so the executions after the first make one
 * request each; a template approved since sends, a template deleted since fails with the service's
 * error and is listed again next time. Asserted on the sandbox's request log and the executions n8n
 * stored.
 *
 * One test per phase, in order: the listings live in the n8n process for the whole file (the
 * sandbox is reset before each test, n8n's memory is not).
 */
import type { RecordedRequest } from '../sandbox';
import { TEMPLATES } from '../sandbox';
import { packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { webhook, workflow } from './workflows/build';
import { flowSend } from './workflows/flow-send';

const tarball = packedForThisFile();

const isListing = (request: RecordedRequest) =>
	request.method === 'GET' && request.path.startsWith('/v1/phone_number_ids');
const isSend = (request: RecordedRequest) =>
	request.method === 'POST' && request.path.endsWith('/send');

describe.each(selectedVersions())('n8n %s', (version) => {
	const n8n = useServedN8n(version, tarball, { credentialName: 'SMSLeopard kept listings' });

	/** Webhook (JSON `{ phone }`) -> Send Template to that one phone; answers when it finished. */
	async function activate(path: string, parameters: Record<string, unknown> = {}): Promise<string> {
		const send = flowSend(
			n8n.credential,
			{ onError: 'continueRegularOutput' },
			{
				destination: '={{ $json.body.phone }}',
				...parameters,
			},
		);
		return await n8n.rest.activateWorkflow(
			workflow(`kept listings ${path}`, [[webhook(path, 'lastNode'), send]]),
		);
	}

	/**
	 * One sign-up: posts `{ phone }` to the production URL and waits for the execution's end. n8n
	 * 2.41 registers an activated workflow's webhook a moment after the activation call returns
	 * (2.8 before it): a 404 "not registered" ran nothing, so it is asked again, bounded.
	 */
	async function signUp(path: string, phone: string): Promise<void> {
		for (let attempt = 0; attempt < 60; attempt++) {
			const answer = await fetch(`${n8n.server.url}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ phone }),
			});
			const text = await answer.text();
			if (answer.status === 200) return;
			if (answer.status !== 404 || !text.includes('not registered')) {
				throw new Error(`webhook: HTTP ${answer.status} ${text}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		throw new Error(`webhook ${path}: not registered after 60 attempts`);
	}

	function counted() {
		const requests = n8n.sandbox.requests;
		return {
			listings: requests.filter(isListing).length,
			sends: requests.filter(isSend).length,
			all: requests.length,
		};
	}

	it('30 one-send executions, 10 at a time: the listings once, then one request per send', async () => {
		const path = 'kept-signups';
		const id = await activate(path);
		const phones = Array.from(
			{ length: 30 },
			(_, index) => `+2547104000${String(index).padStart(2, '0')}`,
		);
		for (let start = 0; start < phones.length; start += 10) {
			await Promise.all(
				phones.slice(start, start + 10).map(async (phone) => await signUp(path, phone)),
			);
		}
		// The first ten missed together and shared one fetch of each listing.
		expect(counted()).toEqual({ listings: 2, sends: 30, all: 32 });
		expect(Object.keys(n8n.sandbox.state.sendCountByDestination)).toHaveLength(30);
		const executions = await n8n.rest.settledExecutions(id, 30);
		expect(executions.every((execution) => execution.status === 'success')).toBe(true);
	});

	it('a template approved after its listing was kept sends at once', async () => {
		const path = 'kept-approved';
		const pending = n8n.sandbox.state.templates[1].find(
			(template) => template.id === TEMPLATES.pending.id,
		);
		if (!pending) throw new Error('the sandbox seed has no tpl_pending');
		pending.status = 'APPROVED';
		await activate(path, {
			template: { __rl: true, mode: 'id', value: TEMPLATES.pending.id },
			variablesMode: 'define',
			bodyVariables: { variable: [{ placeholder: 1, value: 'REQ-9' }] },
		});
		await signUp(path, '+254710400101');
		// The kept listing (PENDING) would refuse it: listed again (senders, templates), then sent.
		expect(counted()).toEqual({ listings: 2, sends: 1, all: 3 });
		expect(n8n.sandbox.state.sentMessages.map((message) => message.templateId)).toEqual([
			TEMPLATES.pending.id,
		]);
	});

	it("a template deleted after its listing was kept: the service's refusal is the item's error, and the next execution lists again", async () => {
		const path = 'kept-deleted';
		const id = await activate(path);
		await signUp(path, '+254710400201'); // the listing kept by this process holds the Flow template
		n8n.sandbox.reset();
		n8n.sandbox.state.templates[1] = n8n.sandbox.state.templates[1].filter(
			(template) => template.id !== TEMPLATES.flow.id,
		);
		await signUp(path, '+254710400202');
		expect(counted()).toEqual({ listings: 0, sends: 1, all: 1 });
		expect(n8n.sandbox.requests[0].status).toBe(404);
		await signUp(path, '+254710400203');
		// Dropped after the refusal: listed again, and the node refuses before sending.
		expect(counted()).toEqual({ listings: 2, sends: 1, all: 3 });
		const inOrder = (await n8n.rest.settledExecutions(id, 3)).sort(
			(a, b) => Number(a.id) - Number(b.id),
		);
		const [sendRefusal, nodeRefusal] = await Promise.all(
			inOrder
				.slice(1)
				.map(async (execution) =>
					JSON.stringify((await n8n.rest.execution(execution.id)).runData.Send),
				),
		);
		expect(sendRefusal).toMatch(/404|not found/i);
		expect(nodeRefusal).toContain('is not a template of sender');
	});

	it('Keep Listings 0: every execution lists for itself (3 requests a send)', async () => {
		const path = 'kept-off';
		await activate(path, { requestOptions: { keepListings: 0 } });
		for (const phone of ['+254710400301', '+254710400302', '+254710400303']) {
			await signUp(path, phone);
		}
		expect(counted()).toEqual({ listings: 6, sends: 3, all: 9 });
	});
});
