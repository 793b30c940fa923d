/**
 * A new trigger version reads everything the old one read. The same family of posts (every body
 * shape, secret place and content type: test/support/trigger-posts.ts) goes through n8n's handling
 * of each version's body into the trigger in n8n-core's real WebhookContext: version 2 answers and
 * reads each exactly as version 1 does. The posts each earlier version accepted are kept as
 * fixtures (test/fixtures/trigger-posts/), and every later version must accept them and read the
 * same events. A future version adds its file: `TRIGGER_FIXTURES_WRITE=<version>` writes it.
 */
import { readFileSync, readdirSync, writeFileSync } from 'fs';
import path from 'path';
import type { TriggerPost } from '../support/trigger-posts';
import { triggerPostFamily } from '../support/trigger-posts';
import { type PostOutcome, postAsN8n } from './trigger-support';

/** The secret the fixtures were made with: a test value, in the fixtures' signatures. */
export const FIXTURE_SECRET = 'fixture-trigger-secret-2c9e';
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'trigger-posts');
const VERSIONS = [1, 2] as const;

interface FixturePost extends TriggerPost {
	/** What the version that saved it read: the started items' event, message id and status. */
	read: PostOutcome['read'];
}

const family = triggerPostFamily(FIXTURE_SECRET);

describe('version 2 answers and reads every post of the family as version 1 does', () => {
	const outcomes = new Map<number, PostOutcome[]>();

	beforeAll(async () => {
		for (const version of VERSIONS) {
			const answers: PostOutcome[] = [];
			for (const post of family) answers.push(await postAsN8n(version, post, FIXTURE_SECRET));
			outcomes.set(version, answers);
		}
	}, 120_000);

	it(`${family.length} posts: the same status and the same events, post by post`, () => {
		const [v1, v2] = VERSIONS.map((version) => outcomes.get(version) as PostOutcome[]);
		const differing = family
			.map((post, index) => ({ post: post.name, v1: v1[index], v2: v2[index] }))
			.filter((entry) => JSON.stringify(entry.v1) !== JSON.stringify(entry.v2));
		expect(differing).toEqual([]);
		// The family is not vacuous: most of it is accepted and started, refusals are there too.
		const accepted = v1.filter((outcome) => outcome.status === 200 && outcome.read.length > 0);
		expect(accepted.length).toBeGreaterThan(family.length / 2);
		expect(v1.filter((outcome) => outcome.status === 401).length).toBeGreaterThan(50);
	});

	it.each([
		[
			'application/octet-stream',
			{ 'x-hub-signature-256': 'sign' },
			'flat body, secret in signature x-hub-signature-256, content type application/octet-stream',
		],
		[
			'no content type, the secret in the body',
			{},
			'flat body, secret in body status_secret, content type (none)',
		],
	])("the issue's posts: %s, accepted by both", (_name, _headers, postName) => {
		const index = family.findIndex((post) => post.name === postName);
		expect(index).toBeGreaterThanOrEqual(0);
		for (const version of VERSIONS) {
			expect(outcomes.get(version)?.[index]).toEqual({
				status: 200,
				read: [['smsDeliveryReport', expect.stringMatching(/^flat-/), 'DELIVRD']],
			});
		}
	});

	// Writes the posts this version accepted as its fixture: run once per new version.
	const writing = Number(process.env.TRIGGER_FIXTURES_WRITE ?? 0);
	(writing ? it : it.skip)('writes the fixture of the version in TRIGGER_FIXTURES_WRITE', () => {
		const answers = outcomes.get(writing) as PostOutcome[];
		const kept: FixturePost[] = family
			.map((post, index) => ({ ...post, read: answers[index].read, status: answers[index].status }))
			.filter((post) => post.status === 200 && post.read.length > 0)
			.map(({ status: _status, ...post }) => post);
		writeFileSync(
			path.join(FIXTURES, `accepted-by-v${writing}.json`),
			`${JSON.stringify(kept, null, '\t')}\n`,
		);
	});
});

describe('posts accepted by earlier versions, as saved: every version from theirs accepts them', () => {
	const files = readdirSync(FIXTURES).filter((name) => /^accepted-by-v\d+\.json$/.test(name));

	it('there is a fixture for version 1', () => {
		expect(files).toContain('accepted-by-v1.json');
	});

	it.each(
		files
			.flatMap((file) => VERSIONS.map((version) => [file, version] as const))
			.filter(([file, version]) => version >= Number(/v(\d+)/.exec(file)?.[1])),
	)(
		'%s, read by version %s',
		async (file, version) => {
			const posts = JSON.parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as FixturePost[];
			expect(posts.length).toBeGreaterThan(100);
			const differing = [];
			for (const post of posts) {
				const outcome = await postAsN8n(version, post, FIXTURE_SECRET);
				if (outcome.status !== 200 || JSON.stringify(outcome.read) !== JSON.stringify(post.read)) {
					differing.push({ post: post.name, saved: post.read, now: outcome });
				}
			}
			expect(differing).toEqual([]);
		},
		120_000,
	);
});
