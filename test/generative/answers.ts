/**
 * The family of answers real gateways sometimes give, as fast-check arbitraries, and how each is
 * written out. An answer is drawn as a plan (status, fault, body kind, what happens to the
 * recipient list) and rendered against the request it answers, so the gateway knows which id it
 * gave to which of the request's items.
 *
 * Recipient lists stay honest about numbers: an entry names its own recipient (in any spelling of
 * the same phone), no number at all, or an odd type; entries for numbers nobody asked for carry ids
 * of their own. When an entry names no usable number, the list either keeps the request's order and
 * length or has a different length, so pairing by position is never a trap no client could avoid.
 */
import fc from 'fast-check';
import type { Answer, Fault } from './gateway';

export type BodyKind = 'shaped' | 'odd-json' | 'text' | 'empty' | 'huge' | 'deep' | 'echo';

/** What happens to the entry of one requested recipient. */
export type EntryTwist =
	| 'asked'
	| 'international'
	| 'international-bare'
	| 'number-null'
	| 'number-missing'
	| 'number-as-number'
	| 'id-null'
	| 'id-empty'
	| 'id-number'
	| 'id-missing'
	| 'cost-string'
	| 'status-missing'
	| 'dropped'
	| 'twice'
	| 'twice-new-id';

export interface AnswerPlan {
	status: number;
	fault: Fault;
	body: BodyKind;
	/** One per requested recipient (cycled when the request has more). */
	twists: EntryTwist[];
	/** Reverse the entries (only where the result stays readable, see the header). */
	reorder: boolean;
	/** Entries for numbers nobody asked for, appended. */
	extras: number;
	/** The `success` flag of an SMS answer. */
	success: true | false | 'true' | 'missing';
	oddJson: unknown;
	/** Depth of the nested field of a 'deep' body; size of the padding of a 'huge' one. */
	size: number;
}

const STATUSES_2XX = [200, 201, 202, 203, 204, 206, 299];
const STATUSES_4XX = [400, 401, 403, 404, 409, 410, 413, 422, 429];
const STATUSES_5XX = [500, 502, 503, 504];

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
	{ weight: 16, arbitrary: fc.constant<Fault>('none') },
	{ weight: 1, arbitrary: fc.constant<Fault>('reset-after-request') },
	{ weight: 1, arbitrary: fc.constant<Fault>('reset-mid-body') },
	{ weight: 1, arbitrary: fc.constant<Fault>('stall-mid-body') },
	{ weight: 1, arbitrary: fc.constant<Fault>('stall-before-headers') },
);

const twistArb: fc.Arbitrary<EntryTwist> = fc.oneof(
	{ weight: 8, arbitrary: fc.constant<EntryTwist>('asked') },
	{
		weight: 6,
		arbitrary: fc.constantFrom<EntryTwist>(
			'international',
			'international-bare',
			'number-null',
			'number-missing',
			'number-as-number',
			'id-null',
			'id-empty',
			'id-number',
			'id-missing',
			'cost-string',
			'status-missing',
			'dropped',
			'twice',
			'twice-new-id',
		),
	},
);

export const answerPlanArb: fc.Arbitrary<AnswerPlan> = fc.record({
	status: fc.oneof(
		{ weight: 10, arbitrary: fc.constantFrom(200, 201) },
		{ weight: 3, arbitrary: fc.constantFrom(...STATUSES_2XX) },
		{ weight: 3, arbitrary: fc.constantFrom(...STATUSES_4XX) },
		{ weight: 3, arbitrary: fc.constantFrom(...STATUSES_5XX) },
	),
	fault: faultArb,
	body: fc.oneof(
		{ weight: 12, arbitrary: fc.constant<BodyKind>('shaped') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('odd-json') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('text') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('empty') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('huge') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('deep') },
		{ weight: 1, arbitrary: fc.constant<BodyKind>('echo') },
	),
	twists: fc.array(twistArb, { minLength: 1, maxLength: 4 }),
	reorder: fc.boolean(),
	extras: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 2 })),
	success: fc.constantFrom<AnswerPlan['success']>(true, true, true, false, 'true', 'missing'),
	oddJson: fc.constantFrom<unknown>(
		null,
		[],
		{},
		'ok',
		42,
		true,
		{ recipients: 'none' },
		{ recipients: [null] },
		{ data: { recipients: [] } },
		[{ id: 'x' }],
	),
	size: fc.constantFrom(1_000, 20_000, 200_000),
});

/** An answer that is exactly what docs/api.md shows: the plan the generators shrink to. */
export const PLAIN_ANSWER: AnswerPlan = {
	status: 200,
	fault: 'none',
	body: 'shaped',
	twists: ['asked'],
	reorder: false,
	extras: 0,
	success: true,
	oddJson: null,
	size: 1_000,
};

/** The same phone as the service of a Kenyan account reads it: 0712… is +254712…. */
export function canonicalPhone(number: string): string {
	const digits = number.replace(/\D/g, '');
	return number.trim().startsWith('0') ? `254${digits.slice(1)}` : digits;
}

/** Numbers the gateway may list that nobody asked for, some sharing suffixes with asked ones. */
const FOREIGN = ['+256712345678', '+255712345678', '+254799999999', '0712345679', '+447712345678'];

export interface RecipientRender {
	/** The entries as they go into the body. */
	entries: Array<Record<string, unknown>>;
	/** Ids given to each requested position (any JSON type, as written). */
	idsByPosition: unknown[][];
}

let idCounter = 0;
/** A message id never used before in this process, so a wrong pairing cannot match by chance. */
export function freshId(prefix: string): string {
	idCounter++;
	return `${prefix}-${idCounter.toString(16).padStart(6, '0')}-${Math.random().toString(16).slice(2, 10)}`;
}

function spelled(number: string, twist: EntryTwist): unknown {
	const canonical = canonicalPhone(number);
	switch (twist) {
		case 'international':
			return `+${canonical}`;
		case 'international-bare':
			return canonical;
		case 'number-null':
			return null;
		case 'number-as-number':
			return Number(canonical);
		default:
			return number;
	}
}

const NAMELESS: EntryTwist[] = ['number-null', 'number-missing', 'number-as-number'];

/**
 * The recipients list answering `asked` (the numbers of the request, by position), twisted as the
 * plan says. `idPrefix` marks the ids (a UUID-like text for SMS, a wamid for WhatsApp).
 */
export function renderRecipients(
	asked: string[],
	plan: AnswerPlan,
	idPrefix: string,
): RecipientRender {
	const idsByPosition: unknown[][] = asked.map(() => []);
	type Placed = { entry: Record<string, unknown>; position?: number; named: boolean };
	let placed: Placed[] = [];
	const canonicalCounts = new Map<string, number>();
	for (const number of asked) {
		const key = canonicalPhone(number);
		canonicalCounts.set(key, (canonicalCounts.get(key) ?? 0) + 1);
	}
	asked.forEach((number, position) => {
		const twist = plan.twists[position % plan.twists.length];
		if (twist === 'dropped') return;
		const id: unknown =
			twist === 'id-null'
				? null
				: twist === 'id-empty'
					? ''
					: twist === 'id-number'
						? 100_000 + position + idCounter++ * 10
						: freshId(idPrefix);
		const entry: Record<string, unknown> = {
			...(twist === 'id-missing' ? {} : { id }),
			cost: twist === 'cost-string' ? '0.80' : 0.8,
			...(twist === 'number-missing' ? {} : { number: spelled(number, twist) }),
			...(twist === 'status-missing' ? {} : { status: position % 2 ? 'queued' : 'Success' }),
		};
		if (twist !== 'id-missing') idsByPosition[position].push(id);
		// A number two asked recipients share names neither of them alone.
		const named =
			!NAMELESS.includes(twist) && (canonicalCounts.get(canonicalPhone(number)) ?? 0) === 1;
		placed.push({ entry, position, named });
		if (twist === 'twice') placed.push({ entry: { ...entry }, position, named });
		if (twist === 'twice-new-id') {
			const second = freshId(idPrefix);
			idsByPosition[position].push(second);
			placed.push({ entry: { ...entry, id: second }, position, named });
		}
	});
	if (plan.reorder) placed = placed.reverse();
	const askedCanonical = new Set(asked.map(canonicalPhone));
	const foreign = FOREIGN.filter((number) => !askedCanonical.has(canonicalPhone(number)));
	for (let extra = 0; extra < plan.extras; extra++) {
		placed.push({
			entry: {
				id: freshId(`${idPrefix}-nobody`),
				cost: 0.8,
				number: foreign[extra % foreign.length],
				status: 'Success',
			},
			named: true,
		});
	}
	// Where an entry names nobody, the same length must mean the same order (see the header).
	const kept =
		placed.length === asked.length && placed.every((item, index) => item.position === index);
	if (placed.length === asked.length && !kept && placed.some((item) => !item.named)) {
		placed.push({
			entry: { id: freshId(`${idPrefix}-nobody`), cost: 0.8, number: foreign[0], status: 'Failed' },
			named: true,
		});
	}
	return { entries: placed.map((item) => item.entry), idsByPosition };
}

/** A value nested `depth` levels deep, written without recursion. */
export function deeplyNested(depth: number): string {
	return `${'{"a":'.repeat(depth)}0${'}'.repeat(depth)}`;
}

/** Renders a body the plan asks for around the op's own shaped object. */
export function renderBody(
	plan: AnswerPlan,
	shaped: () => unknown,
	echoOf: () => string,
): { body: string; contentType?: string } {
	switch (plan.body) {
		case 'odd-json':
			return { body: JSON.stringify(plan.oddJson) };
		case 'text':
			return {
				body: '<html><body>502 Bad Gateway</body></html>',
				contentType: plan.status < 300 ? 'application/json' : 'text/html',
			};
		case 'empty':
			return { body: '' };
		case 'huge': {
			// Over the node's 10 MB answer limit at the largest size, well under it otherwise.
			const padding = 'x'.repeat(plan.size >= 200_000 ? 11 * 1024 * 1024 : plan.size * 50);
			const json = JSON.stringify(shaped());
			return { body: `${json.slice(0, -1)},"padding":"${padding}"}` };
		}
		case 'deep': {
			const json = JSON.stringify(shaped());
			return { body: `${json.slice(0, -1)},"trace":${deeplyNested(plan.size)}}` };
		}
		case 'echo':
			return { body: echoOf() };
		default:
			return { body: JSON.stringify(shaped()) };
	}
}

/** The error bodies both hosts use, for plans whose status is not 2xx. */
export function errorShape(plan: AnswerPlan, host: 'chat' | 'contacts'): unknown {
	if (host === 'chat')
		return {
			error_code: plan.status === 401 ? 'unauthorized' : 'bad_request',
			error_message: 'refused by the gateway',
			status_code: plan.status,
		};
	return plan.status === 401
		? { success: false, message: 'Invalid credentials', recipients: [] }
		: { error: 'refused', message: 'refused by the gateway' };
}

/** Builds the Answer the gateway writes. */
export function toAnswer(
	plan: AnswerPlan,
	rendered: { body: string; contentType?: string },
): Answer {
	return {
		status: plan.status,
		fault: plan.fault,
		body: plan.status === 204 ? '' : rendered.body,
		contentType: rendered.contentType,
	};
}
