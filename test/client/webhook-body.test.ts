/**
 * The body kept beside every event (client/inbound/webhook-body.ts, withoutSecret in webhook-secret.ts):
 * whole at any depth a post reaches, raw text beyond what n8n can copy, only the secret removed;
 * and what the secret check says of a refused post (its verdict, for the log).
 */
import {
	MAX_KEPT_DEPTH,
	carriesSecret,
	checkSecret,
	keptBody,
	readWebhookEvents,
} from '../../nodes/SmsLeopard/client';
import { META_CASES } from './meta-family';

const SECRET = 'report-secret-2931';

function nested(depth: number, leaf: unknown): unknown {
	let value = leaf;
	for (let level = 0; level < depth; level++) value = { next: value };
	return value;
}

describe('the kept body', () => {
	it("Meta's posts are kept whole, to their deepest field", () => {
		for (const entry of META_CASES) expect(keptBody(entry.post, SECRET).body).toEqual(entry.post);
	});

	it('a post 1,000 levels deep (what the README promises) is kept as fields, to its leaf', () => {
		expect(MAX_KEPT_DEPTH).toBe(1_000);
		// The leaf object is the 1,000th level.
		const post = nested(999, { id: 'deep', note: 'leaf' });
		const kept = keptBody(post, SECRET);
		expect(kept.bodyNote).toBeUndefined();
		expect(JSON.stringify(kept.body)).toContain('"note":"leaf"');
		const deeper = nested(1_000, { id: 'deep', note: 'leaf' });
		expect(keptBody(deeper, SECRET, JSON.stringify(deeper)).bodyNote).toContain('raw text');
	});

	it('a hostile depth (100,000) neither throws nor loses the post: its raw text, minus the secret', () => {
		const raw = `${'['.repeat(100_000)}"${SECRET}"${']'.repeat(100_000)}`;
		const parsed = JSON.parse(raw) as unknown;
		const kept = keptBody(parsed, SECRET, Buffer.from(raw));
		expect(kept.bodyNote).toContain('raw text');
		expect(typeof kept.body).toBe('string');
		expect((kept.body as string).length).toBe(raw.length - SECRET.length + '[redacted]'.length);
		expect(kept.body).not.toContain(SECRET);
	});

	it('a form-encoded raw text loses the secret as it was encoded', () => {
		const secret = 'a secret&with=marks';
		const raw = `data=${'x'.repeat(3)}&status_secret=${encodeURIComponent(secret)}`;
		const kept = keptBody(nested(MAX_KEPT_DEPTH + 1, 1), secret, raw);
		expect(kept.body).toBe('data=xxx&status_secret=[redacted]');
	});

	it("only the secret's own field and values equal to it go; other token or secret fields stay", () => {
		const body = {
			status_secret: SECRET,
			token: 'otp-123456',
			secret: 'the customer said: open sesame',
			data: [{ id: 'a1', webhook_secret: SECRET, note: `signed with ${SECRET}` }, SECRET],
		};
		expect(keptBody(body, SECRET).body).toEqual({
			token: 'otp-123456',
			secret: 'the customer said: open sesame',
			data: [{ id: 'a1', note: 'signed with [redacted]' }],
		});
	});
});

describe('batches', () => {
	it('20,000 reports in one post, each with the secret: all accepted and read (no count bound)', () => {
		const reports = Array.from({ length: 20_000 }, (_, index) => ({
			id: `r${index}`,
			status: 'DELIVRD',
			status_secret: SECRET,
		}));
		const request = { body: reports, headers: {}, query: {} };
		expect(carriesSecret(request, SECRET, 'bodyField')).toBe(true);
		expect(readWebhookEvents(reports)).toHaveLength(20_000);
	});
});

describe('why a post is refused (the verdict the log gives)', () => {
	const report = { id: 'a1', status: 'DELIVRD' };
	const request = (overrides: Record<string, unknown>) => ({
		body: report,
		headers: {},
		query: {},
		...overrides,
	});

	it.each([
		['nothing presented', request({}), 'any', 'noSecret'],
		[
			'a wrong body field',
			request({ body: { ...report, status_secret: 'guess' } }),
			'any',
			'wrongSecret',
		],
		['a wrong header', request({ headers: { 'x-status-secret': 'guess' } }), 'any', 'wrongSecret'],
		[
			'a wrong bearer',
			request({ headers: { authorization: 'Bearer guess' } }),
			'any',
			'wrongSecret',
		],
		['a wrong query secret', request({ query: { secret: 'guess' } }), 'any', 'wrongSecret'],
		[
			'a bad signature',
			request({ headers: { 'x-hub-signature-256': 'sha256=00' } }),
			'any',
			'wrongSecret',
		],
		[
			'the right secret in a header, pinned to the body',
			request({ headers: { 'x-status-secret': SECRET } }),
			'bodyField',
			'elsewhere',
		],
		[
			'the right secret in a header',
			request({ headers: { 'x-status-secret': SECRET } }),
			'any',
			'accepted',
		],
	])('%s', (_name, given, presentation, verdict) => {
		expect(checkSecret(given, SECRET, presentation as never)).toBe(verdict);
	});
});
