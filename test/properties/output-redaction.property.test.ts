// Output items are looked through for secrets and kept as they are when they hold none; any that
// holds one, anywhere (a value, a key, an inherited field, an array, deep down), comes out exactly
// as the copying redactor would make it. Generated values mix secrets, their fragments and
// neighbours into strings and keys at any depth.
import fc from 'fast-check';
import { credentialSecrets, redactDeep, redactOutput } from '../../nodes/SmsLeopard/helpers/redact';

const RUNS = 3000;

const secrets = credentialSecrets(
	{ apiKey: 'key-7f3a', apiSecret: 'secret "quoted" \\ and ünïcode' },
	['hook-secret-42'],
);

/** Secrets, pieces of them, and ordinary text, glued together. */
const piece = fc.oneof(
	fc.constantFrom(...secrets),
	fc.constantFrom(...secrets).map((secret) => secret.slice(0, -1)),
	fc.constantFrom(...secrets).map((secret) => secret.slice(1)),
	fc.string({ maxLength: 8 }),
	fc.constantFrom('sent', '254712345678', 'KES', '', '__proto__'),
);
const text = fc.array(piece, { maxLength: 3 }).map((parts) => parts.join(''));

const { value: outputValue } = fc.letrec<{ value: unknown }>((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small', withCrossShrink: true },
		text,
		fc.double({ noNaN: true }),
		fc.boolean(),
		fc.constant(null),
		fc.array(tie('value'), { maxLength: 4 }),
		// n8n items are JSON: plain objects, as JSON.parse makes them.
		fc.dictionary(text, tie('value'), { maxKeys: 4, noNullPrototype: true }),
	),
}));

function holdsSecret(value: unknown): boolean {
	const strings: string[] = [];
	const collect = (entry: unknown): void => {
		if (typeof entry === 'string') strings.push(entry);
		else if (Array.isArray(entry)) entry.forEach(collect);
		else if (entry && typeof entry === 'object') {
			for (const [name, inner] of Object.entries(entry)) {
				strings.push(name);
				collect(inner);
			}
		}
	};
	collect(value);
	return strings.some((entry) => secrets.some((secret) => entry.includes(secret)));
}

describe('redactOutput', () => {
	it('keeps a value holding no secret as it is, and redacts one that does as redactDeep does', () => {
		let kept = 0;
		let redacted = 0;
		fc.assert(
			fc.property(outputValue, (value) => {
				const result = redactOutput(value, secrets);
				expect(result).toStrictEqual(redactDeep(value, secrets));
				if (holdsSecret(value)) {
					redacted++;
					expect(JSON.stringify(result)).not.toMatch(/key-7f3a|hook-secret-42/);
				} else {
					kept++;
					expect(result).toBe(value);
				}
			}),
			{ numRuns: RUNS },
		);
		// Both kinds were generated often enough to mean something.
		expect(kept).toBeGreaterThan(RUNS / 10);
		expect(redacted).toBeGreaterThan(RUNS / 10);
	});

	it('finds a secret in a key, deep in arrays, or in an inherited field', () => {
		const inKey = { result: { [`echo ${secrets[0]}`]: 1 } };
		expect(redactOutput(inKey, secrets)).toEqual({ result: { 'echo [redacted]': 1 } });
		const deep = { a: [[[{ b: [`x${secrets[1]}y`] }]]] };
		expect(redactOutput(deep, secrets)).toEqual({ a: [[[{ b: ['x[redacted]y'] }]]] });
		const inherited = Object.create({ echoed: secrets[0] }) as Record<string, unknown>;
		inherited.status = 'sent';
		const copied = redactOutput(inherited, secrets);
		expect(copied).not.toBe(inherited);
		expect(copied.echoed).toBeUndefined();
		expect(copied).toEqual({ status: 'sent' });
		const answer = JSON.parse(`{"__proto__": {"echo": "${secrets[0]}"}, "status": "sent"}`);
		const copy = redactOutput(answer, secrets);
		expect(Object.keys(copy)).toEqual(['__proto__', 'status']);
		expect(JSON.stringify(copy)).toBe('{"__proto__":{"echo":"[redacted]"},"status":"sent"}');
	});

	it('copies what it cannot vouch for: errors, cycles, nesting past its depth', () => {
		const error = new Error(`failed with ${secrets[0]}`);
		expect(redactOutput({ error }, secrets)).toEqual({
			error: { name: 'Error', message: 'failed with [redacted]', stack: expect.any(String) },
		});
		const cyclic: Record<string, unknown> = { status: 'sent' };
		cyclic.self = cyclic;
		expect(redactOutput(cyclic, secrets)).toEqual({ status: 'sent', self: undefined });
		let nested: unknown = 'plain';
		for (let depth = 0; depth < 100; depth++) nested = [nested];
		const copy = redactOutput(nested, secrets);
		expect(copy).not.toBe(nested);
		expect(copy).toEqual(nested);
	});

	it('keeps buffers, dates and short strings without looking into them', () => {
		const value = { file: Buffer.from(secrets[0]), at: new Date(0), code: 'KES' };
		expect(redactOutput(value, secrets)).toBe(value);
	});
});
