/**
 * The trigger's version 2 reads everything version 1 read, in real n8n with the packed package:
 * one activated workflow of each version, the same secret (version 1's Secret field, version 2's
 * credential), and the same posts from the family of test/support/trigger-posts.ts (one per body
 * shape × secret place kind × content type, refusals included) plus XML, which n8n parses itself.
 * Each post must get the same status from both, an empty body when accepted (never the literal
 * text "firstEntryJson"), and start executions reading the same events.
 *
 * Every post of that family runs in n8n 2.8.4 (the version the queue and editor suites use). The
 * other versions get every pair of it: each content type with each kind of secret place, with a
 * body shape that turns with them (samplePosts below), so every (shape, content type),
 * (shape, place) and (place, content type) pair still meets each n8n's own body parsing, in a sixth
 * of the posts. On n8n 1.123.81 each post is an execution of about 300 ms of CPU (n8n's expression
 * isolate), so the whole family took 115-228 s there against 24 s in 2.8.4.
 */
import { createHmac } from 'crypto';
import { packedForThisFile } from './harness';
import { selectedVersions } from './matrix';
import { useServedN8n } from './sandboxed-n8n';
import { reportsWorkflow, reportsWorkflowV2 } from './workflows/trigger';
import {
	POST_CONTENT_TYPES,
	POST_SHAPES,
	SECRET_PLACES,
	type TriggerPost,
	triggerPostFamily,
} from '../support/trigger-posts';

const tarball = packedForThisFile();
const SECRET = 'versions-e2e-secret-8d21';
/** Executions read at once once all have settled (reads only: one at a time took the longest). */
const READS_AT_ONCE = 4;

/** `work` on every item, `size` at a time; the results in the items' order. */
async function inGroups<T, R>(items: T[], size: number, work: (item: T) => Promise<R>) {
	const results: R[] = [];
	for (let start = 0; start < items.length; start += size)
		results.push(...(await Promise.all(items.slice(start, start + size).map(work))));
	return results;
}

/** The n8n version that gets every post of the family; the others get every pair of it. */
const WHOLE_FAMILY_IN = '2.8.4';

/** The posts named by the issue that moved the secret: every version gets them. */
const ISSUE_POSTS = [
	'flat body, secret in signature x-hub-signature-256, content type application/octet-stream',
	'flat body, secret in body status_secret, content type (none)',
];

/**
 * One post per body shape, kind of secret place and content type: the family, without repeats;
 * `pairs` keeps one shape per (place kind, content type), turning with both, so each pair of the
 * three still appears (6 shapes, 7 kinds of place, 8 content types: 56 posts instead of 336).
 */
function samplePosts(pairs: boolean): TriggerPost[] {
	const seen = new Set<string>();
	const kinds = [...new Set(SECRET_PLACES.map((place) => place.in as string))];
	return triggerPostFamily(SECRET).filter((post) => {
		const [shape, , , , place] = post.name.split(' ');
		const key = `${shape}|${place}|${post.contentType ?? ''}`;
		if (seen.has(key)) return false;
		seen.add(key);
		if (!pairs || ISSUE_POSTS.includes(post.name)) return true;
		// A place without a name ends its word with the name's comma ("secret in none, content type").
		const turn =
			kinds.indexOf(place.replace(/,$/, '')) + POST_CONTENT_TYPES.indexOf(post.contentType);
		return POST_SHAPES.indexOf(shape as (typeof POST_SHAPES)[number]) === turn % POST_SHAPES.length;
	});
}

/**
 * XML, parsed by n8n (xml2js) at every version under its root element (so never with the secret
 * as a body field): the secret in a header and as a signature.
 */
function xmlPosts(): TriggerPost[] {
	const element = '<report><id>xml-1</id><status>DELIVRD</status></report>';
	const signed = '<report><id>xml-2</id><status>UNDELIV</status></report>';
	return [
		{
			name: 'xml, secret in a header',
			contentType: 'application/xml',
			headers: { 'x-status-secret': SECRET },
			query: {},
			raw: element,
		},
		{
			name: 'xml, signed',
			contentType: 'text/xml',
			headers: {
				'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(signed).digest('hex')}`,
			},
			query: {},
			raw: signed,
		},
	];
}

describe.each(selectedVersions())('SMSLeopard Trigger versions 1 and 2 in n8n %s', (version) => {
	const n8n = useServedN8n(version, tarball, { credentialName: 'SMSLeopard sandbox' });

	/** Every settled execution of a workflow, page by page (n8n gives at most 100 a page). */
	async function settled(workflowId: string, count: number): Promise<Array<{ id: string }>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const deadline = Date.now() + 240_000;
		for (;;) {
			const all: Array<{ id: string; status: string }> = [];
			// n8n 1.123 and 2.8 page by lastId; 2.41 by the cursor it returns (and refuses lastId).
			let next = '';
			for (;;) {
				const page = await n8n.rest.call<{
					results: Array<{ id: string; status: string }>;
					nextCursor?: string | null;
				}>('GET', `/rest/executions?filter=${filter}&limit=100${next}`);
				all.push(...page.results);
				if (page.results.length < 100 || page.nextCursor === null) break;
				next =
					page.nextCursor === undefined
						? `&lastId=${page.results[page.results.length - 1].id}`
						: `&cursor=${page.nextCursor}`;
			}
			const done = all.filter((entry) => !['new', 'running', 'waiting'].includes(entry.status));
			if (done.length >= count || Date.now() > deadline) return done;
			await new Promise((resolve) => setTimeout(resolve, 1000));
		}
	}

	async function activate(json: Parameters<typeof n8n.rest.activateWorkflow>[0], path: string) {
		const projectId = await n8n.rest.personalProjectId();
		const id = await n8n.rest.activateWorkflow({ ...json, projectId });
		const url = `${n8n.server.url}${path}`;
		for (let attempt = 0; attempt < 60; attempt++) {
			if ((await fetch(url, { method: 'POST', body: '{}' })).status !== 404) return { id, url };
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		throw new Error(`the trigger at ${url} did not register`);
	}

	async function send(url: string, post: TriggerPost): Promise<{ status: number; body: string }> {
		const query = new URLSearchParams(post.query).toString();
		const response = await fetch(`${url}${query ? `?${query}` : ''}`, {
			method: 'POST',
			headers: {
				...(post.contentType ? { 'content-type': post.contentType } : {}),
				...post.headers,
			},
			// Bytes, so fetch sets no content type of its own.
			body: new TextEncoder().encode(post.raw),
		});
		return { status: response.status, body: await response.text() };
	}

	/** Every started item's event, message id and status, sorted. */
	async function readEvents(workflowId: string, executions: number): Promise<string[]> {
		const done = await settled(workflowId, executions);
		expect(done).toHaveLength(executions);
		const details = await inGroups(done, READS_AT_ONCE, (entry) => n8n.rest.execution(entry.id));
		for (const detail of details) expect(detail.status).toBe('success');
		return details
			.flatMap((detail) => detail.runData['SMSLeopard Trigger']?.[0]?.data?.main?.[0] ?? [])
			.map((item) => {
				const json = item.json as Record<string, unknown>;
				return `${String(json.event)} ${String(json.messageId)} ${String(json.status)}`;
			})
			.sort();
	}

	it('the same posts get the same answers and start the same executions, read alike', async () => {
		const credential = await n8n.rest.createCredential(
			'SMSLeopard with the versions secret',
			'smsLeopardApi',
			{
				...n8n.sandbox.credentialData,
				webhookSecret: SECRET,
			},
		);
		// Refusals counted by status here; their executions are trigger-refusals.e2e.test.ts's.
		const quiet = { reportRefusedPosts: false };
		const v1Workflow = reportsWorkflow(`versions v1 ${Math.random()}`, SECRET, quiet);
		const v2Workflow = reportsWorkflowV2(`versions v2 ${Math.random()}`, credential, quiet);
		const v1 = await activate(v1Workflow.json, v1Workflow.path);
		const v2 = await activate(v2Workflow.json, v2Workflow.path);
		const posts = [...samplePosts(version !== WHOLE_FAMILY_IN), ...xmlPosts()];
		console.log(`n8n ${version}: ${posts.length} posts to each trigger version`);
		// One post at a time: with 4 at once, n8n 2.8.4 settled 226 of the 227 v2 executions in 240 s.
		const answers: Array<{ post: string; v1: number; v2: number; v1Body: string; v2Body: string }> =
			[];
		for (const post of posts) {
			const [one, two] = [await send(v1.url, post), await send(v2.url, post)];
			answers.push({
				post: post.name,
				v1: one.status,
				v2: two.status,
				v1Body: one.body,
				v2Body: two.body,
			});
		}
		expect(answers.filter((answer) => answer.v1 !== answer.v2)).toEqual([]);
		// The issue's two posts, and XML, accepted by both.
		for (const name of [...ISSUE_POSTS, 'xml, secret in a header', 'xml, signed']) {
			expect(answers.find((answer) => answer.post === name)).toMatchObject({ v1: 200, v2: 200 });
		}
		const accepted = answers.filter((answer) => answer.v2 === 200);
		expect(accepted.length).toBeGreaterThan(posts.length / 2);
		expect(answers.filter((answer) => answer.v2 === 401).length).toBeGreaterThan(10);
		// An accepted post's answer is empty: never n8n's literal "firstEntryJson".
		expect([...new Set(accepted.flatMap((answer) => [answer.v1Body, answer.v2Body]))]).toEqual([
			'',
		]);

		// Unknown bodies start executions too (event "unrecognised"); each post is one execution.
		const started = accepted.length;
		const [read1, read2] = [await readEvents(v1.id, started), await readEvents(v2.id, started)];
		expect(read2).toEqual(read1);
		expect(read1).toEqual(
			expect.arrayContaining([
				'smsDeliveryReport xml-1 DELIVRD',
				'smsDeliveryReport xml-2 UNDELIV',
			]),
		);
	}, 600_000);
});
