import { createHmac } from 'crypto';
import { carriesSecret, withoutSecret } from '../../nodes/SmsLeopard/client';

const SECRET = 'report-secret-2931';
const report = { id: 'a1', status: 'DELIVRD' };
const request = (overrides: Partial<Parameters<typeof carriesSecret>[0]>) => ({
	body: report,
	headers: {},
	query: {},
	...overrides,
});

describe('the trigger secret', () => {
	it('an array of reports passes only when every report carries it: a forged one cannot ride along', () => {
		const good = { ...report, status_secret: SECRET };
		expect(carriesSecret(request({ body: [good, { ...good, id: 'a2' }] }), SECRET)).toBe(true);
		expect(
			carriesSecret(request({ body: [good, { id: 'forged', status: 'DELIVRD' }] }), SECRET),
		).toBe(false);
	});

	it('pinned to one way, the other ways no longer pass', () => {
		const inHeader = request({ headers: { 'x-status-secret': SECRET } });
		expect(carriesSecret(inHeader, SECRET, 'header')).toBe(true);
		expect(carriesSecret(inHeader, SECRET, 'bodyField')).toBe(false);
		expect(carriesSecret(inHeader, SECRET, 'query')).toBe(false);
	});

	it('an HMAC-SHA256 signature of the raw body, as Meta signs; a signature of other bytes fails', () => {
		const raw = Buffer.from(JSON.stringify(report));
		const signature = createHmac('sha256', SECRET).update(raw).digest('hex');
		const signed = request({
			rawBody: raw,
			headers: { 'x-hub-signature-256': `sha256=${signature}` },
		});
		expect(carriesSecret(signed, SECRET)).toBe(true);
		expect(carriesSecret({ ...signed, rawBody: Buffer.from(`${raw.toString()} `) }, SECRET)).toBe(
			false,
		);
		expect(carriesSecret(signed, 'another-secret-1234')).toBe(false);
	});

	it('an empty secret setting lets nothing in, not even a post with an empty secret', () => {
		expect(carriesSecret(request({ body: { ...report, status_secret: '' } }), '')).toBe(false);
	});

	it('the kept body loses every secret field and every copy of the secret text, at any depth', () => {
		const body = {
			status_secret: SECRET,
			data: [{ id: 'a1', token: SECRET, note: `signed with ${SECRET}` }],
		};
		expect(withoutSecret(body, SECRET)).toEqual({
			data: [{ id: 'a1', note: 'signed with [redacted]' }],
		});
	});
});
