/**
 * The memory of listings kept across executions (helpers/kept-listings.ts), on its own: its age,
 * its bound, one fetch for callers missing at once, and never a failure or a forgotten fetch kept.
 * How the node uses it, against the sandbox in n8n's engine: kept-listings.test.ts.
 */
import { KeptListings } from '../../nodes/SmsLeopard/helpers/kept-listings';
import { accountKey } from '../../nodes/SmsLeopard/helpers/account-key';

const keepAll = () => true;

function clock(): { now: () => number; advance: (ms: number) => void } {
	let time = 1_000_000;
	return { now: () => time, advance: (ms) => (time += ms) };
}

/** A fetch that counts its calls and answers when told to. */
function deferredFetch<T>() {
	const calls: Array<{ resolve: (value: T) => void; reject: (error: Error) => void }> = [];
	const fetch = async () =>
		await new Promise<T>((resolve, reject) => calls.push({ resolve, reject }));
	return { fetch, calls };
}

describe('KeptListings', () => {
	it('serves a listing younger than the accepted age from memory, and fetches an older one again', async () => {
		const time = clock();
		const memory = new KeptListings(10, time.now);
		let fetched = 0;
		const fetch = async () => ++fetched;
		expect(await memory.get('a', 60_000, fetch, keepAll)).toEqual({ value: 1, kept: false });
		time.advance(59_999);
		expect(await memory.get('a', 60_000, fetch, keepAll)).toEqual({ value: 1, kept: true });
		time.advance(1);
		expect(await memory.get('a', 60_000, fetch, keepAll)).toEqual({ value: 2, kept: false });
		// Each caller says what age it accepts: a stricter one fetches.
		time.advance(10_000);
		expect(await memory.get('a', 5_000, fetch, keepAll)).toEqual({ value: 3, kept: false });
	});

	it('callers missing the same key at once share one fetch', async () => {
		const memory = new KeptListings(10, clock().now);
		const { fetch, calls } = deferredFetch<string>();
		const waiting = Array.from({ length: 5 }, () => memory.get('a', 60_000, fetch, keepAll));
		await Promise.resolve();
		expect(calls).toHaveLength(1);
		calls[0].resolve('listing');
		expect((await Promise.all(waiting)).map((listed) => listed.value)).toEqual(
			Array(5).fill('listing'),
		);
		expect(memory.size).toBe(1);
	});

	it('never keeps a failed fetch, nor a value the caller turns down', async () => {
		const memory = new KeptListings(10, clock().now);
		await expect(
			memory.get('a', 60_000, async () => await Promise.reject(new Error('503')), keepAll),
		).rejects.toThrow('503');
		expect(memory.size).toBe(0);
		await memory.get(
			'b',
			60_000,
			async () => undefined,
			(value) => value !== undefined,
		);
		expect(memory.size).toBe(0);
		expect(await memory.get('a', 60_000, async () => 'now', keepAll)).toEqual({
			value: 'now',
			kept: false,
		});
	});

	it('a key forgotten while its fetch is under way does not keep what that fetch brings', async () => {
		const memory = new KeptListings(10, clock().now);
		const { fetch, calls } = deferredFetch<string>();
		const first = memory.get('a', 60_000, fetch, keepAll);
		await Promise.resolve();
		memory.forget('a');
		calls[0].resolve('from before the refusal');
		await first;
		await Promise.resolve();
		expect(memory.size).toBe(0);
	});

	it('holds at most its bound, dropping the listing unused longest', async () => {
		const memory = new KeptListings(3, clock().now);
		for (const key of ['a', 'b', 'c']) await memory.get(key, 60_000, async () => key, keepAll);
		await memory.get('a', 60_000, async () => 'again', keepAll); // a is used: b is now oldest
		await memory.get('d', 60_000, async () => 'd', keepAll);
		await Promise.resolve();
		expect(memory.size).toBe(3);
		expect((await memory.get('a', 60_000, async () => 'refetched', keepAll)).kept).toBe(true);
		expect((await memory.get('b', 60_000, async () => 'refetched', keepAll)).kept).toBe(false);
	});
});

describe('accountKey', () => {
	const credential = {
		apiKey: 'key',
		apiSecret: 'secret-0123456789',
		chatUrl: 'https://chat.example',
		contactsUrl: 'https://contacts.example',
		channel: 'whatsapp',
	};

	it('differs when any of key, secret, hosts or channel differs, and never holds the secret', () => {
		const key = accountKey(credential);
		expect(key).toMatch(/^[0-9a-f]{64}$/);
		expect(key).not.toContain('secret');
		for (const field of Object.keys(credential) as Array<keyof typeof credential>) {
			expect(accountKey({ ...credential, [field]: `${credential[field]}x` })).not.toBe(key);
		}
		expect(accountKey({ ...credential })).toBe(key);
	});
});
