/**
 * The operations that send or change something, each as the suite drives it: the node's parameters
 * and input items for a drawn run, which items a request to the gateway carries, and how the gateway
 * answers it. Items are told apart in requests by something of their own (a number, a tag in a
 * customized text, a contact id, a file name), never by the order requests arrive in.
 */
import fc from 'fast-check';
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { binaryItem } from '../harness';
import {
	type AnswerPlan,
	PLAIN_ANSWER,
	answerPlanArb,
	errorShape,
	freshId,
	renderBody,
	renderRecipients,
	toAnswer,
} from './answers';
import type { Answer, Script } from './gateway';

/** Chosen by a user in Send SMS's options; must never show anywhere. */
export const DELIVERY_REPORT_SECRET = 'delivery-report-secret-gen-5150';

export type HostFault = 'gateway' | 'refused' | 'tls-closed' | 'tls-garbage';

/** Everything random about one run. */
export interface RunDraw {
	itemCount: number;
	/** Per item: the answers to the requests led by it, one per attempt. */
	answers: AnswerPlan[][];
	/** Where the credential's URLs point. */
	host: HostFault;
	/** An answer that replaces the sender listing's (Send Template, Upload). */
	listing?: AnswerPlan;
	concurrency: number;
	/** Request Options > Max Wait on Rate Limit: 0 means no second attempt at all. */
	maxRateLimitWait: 0 | 1;
	/** Numbers of the items (Send SMS, Send Template, Contact > Create), from NUMBERS. */
	numbers: string[];
	/** Send SMS: texts customized per recipient (a tag names the item) or the same for all. */
	customized: boolean;
	recipientsPerRequest: number;
	/** Send Template: Include Raw Answer. */
	includeRaw: boolean;
	/** Continue On Fail as "Continue (using error output)": failed items on a second output. */
	errorOutput: boolean;
}

/** Local and international spellings, other countries' numbers sharing suffixes among them. */
export const NUMBERS = [
	'0712345678',
	'+256712345678',
	'+254712345678',
	'254712345679',
	'+255712345678',
	'0700000102',
	'+254700000101',
	'+447712345678',
];

export const TIMEOUT_SECONDS = 1;

export interface Scenario {
	name: string;
	/** The node's parameters for the drawn run. */
	parameters(draw: RunDraw): INodeParameters;
	items(draw: RunDraw): Promise<INodeExecutionData[]>;
	/** Which items a request carries, by position (told apart by what each item has of its own). */
	itemsOf(method: string, path: string, body: Buffer, draw: RunDraw): number[];
	/** The shaped 2xx body and the ids it gives each requested position. */
	shaped(
		plan: AnswerPlan,
		request: { body: Buffer; items: number[] },
	): { body: unknown; idsByPosition: unknown[][] };
	host: 'chat' | 'contacts';
	/** The id a success item carries. */
	successId(json: Record<string, unknown>): unknown;
	/** Requests in a row before an item's own (listings). */
	readsBefore: number;
	/**
	 * Ids that are the item's own whenever the gateway acted, whatever it answered: a deleted
	 * contact's id is the one the request named.
	 */
	idsOfRequest?(items: number[]): unknown[][];
	/** Items share requests (SMS batches). */
	batched?: boolean;
}

const requestOptions = (draw: RunDraw, extra: Record<string, unknown> = {}) => ({
	timeout: TIMEOUT_SECONDS,
	maxRateLimitWait: draw.maxRateLimitWait,
	concurrency: draw.concurrency,
	...extra,
});

const SENDER = { id: 7, phone_number_id: '110000000000001', phone_number: '+254700000001' };
const senderLocator = { __rl: true, mode: 'id', value: SENDER.phone_number_id };

function json(body: Buffer): Record<string, unknown> {
	try {
		return JSON.parse(body.toString('utf8')) as Record<string, unknown>;
	} catch {
		return {};
	}
}

const phoneItems = async (draw: RunDraw) =>
	draw.numbers.map((phone, index) => ({ json: { phone, tag: `g${index}` } }));

const indexOfNumber = (draw: RunDraw, number: unknown) => draw.numbers.indexOf(String(number));

const sendSms: Scenario = {
	name: 'Message > Send SMS',
	host: 'contacts',
	readsBefore: 0,
	batched: true,
	parameters: (draw) => ({
		resource: 'message',
		operation: 'sendSms',
		source: 'SMS_Leopard',
		recipient: '={{ $json.phone }}',
		textMode: draw.customized ? 'customized' : 'same',
		message: draw.customized ? 'Hi {tag}, your order is ready' : 'Your order is ready',
		smsOptions: {
			statusUrl: 'https://hooks.example.com/webhook/sms-status',
			statusSecret: DELIVERY_REPORT_SECRET,
			recipientsPerRequest: draw.recipientsPerRequest,
		},
		requestOptions: requestOptions(draw),
	}),
	items: phoneItems,
	itemsOf(method, path, body, draw) {
		if (method !== 'POST' || !path.startsWith('/v1/sms/send')) return [];
		const destination = json(body).destination;
		if (!Array.isArray(destination)) return [];
		return destination.map((entry: { number?: unknown; message?: unknown }) => {
			const tag = /\bg(\d+)\b/.exec(String(entry.message ?? ''));
			return tag ? Number(tag[1]) : indexOfNumber(draw, entry.number);
		});
	},
	shaped(plan, request) {
		const destination = json(request.body).destination as Array<{ number: string }>;
		const { entries, idsByPosition } = renderRecipients(
			destination.map((entry) => entry.number),
			plan,
			'sms',
		);
		return {
			body: {
				...(plan.success === 'missing' ? {} : { success: plan.success }),
				message: `Sent to ${entries.length}/${destination.length}. Cost KES ${(entries.length * 0.8).toFixed(2)}`,
				recipients: entries,
			},
			idsByPosition,
		};
	},
	successId: (item) => item.messageId,
};

const sendTemplate: Scenario = {
	name: 'Message > Send Template',
	host: 'chat',
	readsBefore: 2,
	parameters: (draw) => ({
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: senderLocator,
		template: { __rl: true, mode: 'id', value: 'tpl_gen' },
		destination: '={{ $json.phone }}',
		variablesMode: 'define',
		requestOptions: requestOptions(draw, { includeRawAnswer: draw.includeRaw }),
	}),
	items: phoneItems,
	itemsOf(method, path, body, draw) {
		if (method !== 'POST' || !/^\/v1\/[^/]+\/send/.test(path)) return [];
		return [indexOfNumber(draw, json(body).destination)];
	},
	shaped(plan, request) {
		const { entries, idsByPosition } = renderRecipients(
			[String(json(request.body).destination)],
			plan,
			'wamid',
		);
		return { body: { recipients: entries }, idsByPosition };
	},
	successId: (item) => item.messageId,
};

/** A contact id or record id as the answer writes it, twisted like a message id. */
function recordId(plan: AnswerPlan): { id: unknown; present: boolean } {
	const twist = plan.twists[0];
	const number = 5_000_000 + Number.parseInt(freshId('r').split('-')[1], 16);
	switch (twist) {
		case 'id-null':
			return { id: null, present: true };
		case 'id-empty':
			return { id: '', present: true };
		case 'id-missing':
			return { id: undefined, present: false };
		case 'id-number':
			return { id: number + 0.5, present: true };
		case 'international':
			return { id: String(number), present: true };
		default:
			return { id: number, present: true };
	}
}

const createContact: Scenario = {
	name: 'Contact > Create',
	host: 'contacts',
	readsBefore: 0,
	parameters: (draw) => ({
		resource: 'contact',
		operation: 'create',
		phoneNumber: '={{ $json.phone }}',
		additionalFields: { name: 'Zawadi Akinyi' },
		requestOptions: requestOptions(draw),
	}),
	items: phoneItems,
	itemsOf(method, path, body, draw) {
		if (method !== 'POST' || !path.startsWith('/v1/contacts/create')) return [];
		return [indexOfNumber(draw, json(body).phone_number)];
	},
	shaped(plan, request) {
		const { id, present } = recordId(plan);
		const phone = json(request.body).phone_number;
		const record = {
			...(present ? { id } : {}),
			name: 'Zawadi Akinyi',
			phone_number: plan.twists[0] === 'number-null' ? null : phone,
			email: '',
			created_at: '2026-11-24T08:00:00Z',
			updated_at: '2026-11-24T08:00:00Z',
		};
		return { body: record, idsByPosition: [present ? [id] : []] };
	},
	successId: (item) => item.id,
};

const CONTACT_IDS = ['4101', '4102', '4103', '4104', '4105', '4106', '4107', '4108'];

const deleteContact: Scenario = {
	name: 'Contact > Delete',
	host: 'contacts',
	readsBefore: 0,
	parameters: (draw) => ({
		resource: 'contact',
		operation: 'delete',
		contactId: '={{ $json.contactId }}',
		requestOptions: requestOptions(draw),
	}),
	items: async (draw) =>
		draw.numbers.map((_, index) => ({ json: { contactId: CONTACT_IDS[index] } })),
	idsOfRequest: (items) => [[CONTACT_IDS[items[0]]]],
	itemsOf(method, path) {
		const id = /^\/v1\/contacts\/(\d+)/.exec(path)?.[1];
		return method === 'DELETE' && id ? [CONTACT_IDS.indexOf(id)] : [];
	},
	shaped(plan, request) {
		const contactId = CONTACT_IDS[request.items[0]];
		const message = plan.twists[0] === 'id-number' ? 42 : 'Contact deleted successfully';
		return { body: { message }, idsByPosition: [[contactId]] };
	},
	successId: (item) => item.contactId,
};

const uploadMedia: Scenario = {
	name: 'Media > Upload',
	host: 'chat',
	readsBefore: 1,
	parameters: (draw) => ({
		resource: 'media',
		operation: 'upload',
		senderNumber: senderLocator,
		binaryPropertyName: 'data',
		options: { type: 'document' },
		requestOptions: requestOptions(draw),
	}),
	items: async (draw) =>
		await Promise.all(
			draw.numbers.map(
				async (_, index) =>
					await binaryItem(
						{},
						'data',
						Buffer.from(`invoice ${index} of the generative suite\n`),
						`gen-item-${index}.txt`,
						'text/plain',
					),
			),
		),
	itemsOf(method, path, body) {
		if (method !== 'POST' || !/^\/v1\/[^/]+\/media/.test(path)) return [];
		const found = /gen-item-(\d+)\.txt/.exec(body.toString('latin1'));
		return found ? [Number(found[1])] : [-1];
	},
	shaped(plan, request) {
		const twist = plan.twists[0];
		const mediaId =
			twist === 'id-null'
				? null
				: twist === 'id-empty'
					? ''
					: twist === 'id-number'
						? 9_700_000_000_000_000 + request.items[0]
						: freshId('media');
		const record = {
			id: 100 + request.items[0],
			phone_number_id: SENDER.phone_number_id,
			...(twist === 'id-missing' ? {} : { media_id: mediaId }),
			media_type: 'document',
			mime_type: 'text/plain',
			file_name: `gen-item-${request.items[0]}.txt`,
			file_size: 40,
		};
		return { body: record, idsByPosition: [twist === 'id-missing' ? [] : [mediaId]] };
	},
	successId: (item) => item.media_id ?? item.mediaId,
};

export const SCENARIOS: Scenario[] = [
	sendSms,
	sendTemplate,
	uploadMedia,
	createContact,
	deleteContact,
];

const TEMPLATE_LISTING = [
	{
		id: 'tpl_gen',
		account_id: 1,
		name: 'gen_notice',
		language: 'en_US',
		status: 'APPROVED',
		type: 'UTILITY',
		header: null,
		message: 'Your order is ready',
		footer: '',
		button: [],
	},
];

/** The request's answer as a whole: listings answer plainly unless the draw says otherwise. */
export function scriptFor(scenario: Scenario, draw: RunDraw): Script {
	let listingsAnswered = 0;
	const plain = (body: unknown): { answer: Answer } => ({
		answer: { status: 200, fault: 'none', body: JSON.stringify(body) },
	});
	return {
		itemsOf: (method, path, body) => scenario.itemsOf(method, path, body, draw),
		answer(request) {
			if (request.items.length === 0) {
				if (draw.listing && request.path === '/v1/phone_number_ids' && listingsAnswered++ === 0) {
					const plan = draw.listing;
					return {
						answer: toAnswer(
							plan,
							renderBody(
								plan,
								() => (plan.status < 300 ? [SENDER] : errorShape(plan, 'chat')),
								() => echo(request, plan),
							),
						),
					};
				}
				if (request.path === '/v1/phone_number_ids') return plain([SENDER]);
				if (request.path.startsWith(`/v1/phone_number_ids/${SENDER.id}/templates`))
					return plain(TEMPLATE_LISTING);
				return { answer: { status: 404, fault: 'none', body: '{"error":"not found"}' } };
			}
			const attempts = draw.answers[request.items[0]] ?? [PLAIN_ANSWER];
			const plan = attempts[Math.min(request.attempt, attempts.length - 1)] ?? PLAIN_ANSWER;
			const success = plan.status >= 200 && plan.status < 300;
			let ids: unknown[][] = [];
			const rendered = renderBody(
				plan,
				() => {
					if (!success) return errorShape(plan, scenario.host);
					const shaped = scenario.shaped(plan, request);
					ids = shaped.idsByPosition;
					return shaped.body;
				},
				() => echo(request, plan),
			);
			// Ids count only when the answer that carries them is written out.
			const written =
				success && plan.status !== 204 && ['shaped', 'huge', 'deep'].includes(plan.body);
			const answer = toAnswer(plan, rendered);
			if (scenario.idsOfRequest && plan.status < 400)
				return { answer, idsByPosition: scenario.idsOfRequest(request.items) };
			return { answer, idsByPosition: written ? ids : [] };
		},
	};
}

/** An error answer quoting the request back, credentials and Delivery Report Secret included. */
function echo(request: { body: Buffer; authorization: string }, plan: AnswerPlan): string {
	const decoded = Buffer.from(request.authorization.replace(/^Basic /, ''), 'base64').toString();
	return JSON.stringify({
		error_code: 'bad_request',
		error_message: `could not process ${request.body.toString('utf8').slice(0, 2000)} (authorization: ${request.authorization}, credentials ${decoded})`,
		status_code: plan.status,
		error: 'bad request',
		message: `echo of ${request.body.toString('utf8').slice(0, 2000)}`,
	});
}

/** Draws one run of `scenario`. */
export function drawArb(scenario: Scenario): fc.Arbitrary<RunDraw> {
	const attempts = fc.array(answerPlanArb, { minLength: 1, maxLength: 2 });
	return fc
		.record({
			itemCount: fc.integer({ min: 2, max: 4 }),
			answers: fc.array(attempts, { minLength: 4, maxLength: 4 }),
			host: fc.oneof(
				{ weight: 9, arbitrary: fc.constant<HostFault>('gateway') },
				{
					weight: 1,
					arbitrary: fc.constantFrom<HostFault>('refused', 'tls-closed', 'tls-garbage'),
				},
			),
			listing: fc.option(answerPlanArb, { freq: 6, nil: undefined }),
			concurrency: fc.integer({ min: 1, max: 3 }),
			maxRateLimitWait: fc.constantFrom<0 | 1>(0, 0, 0, 1),
			order: fc.shuffledSubarray(NUMBERS, { minLength: 4, maxLength: 4 }),
			duplicate: fc.boolean(),
			customized: fc.boolean(),
			recipientsPerRequest: fc.integer({ min: 1, max: 4 }),
			includeRaw: fc.boolean(),
			errorOutput: fc.boolean(),
		})
		.map(({ order, duplicate, ...rest }) => {
			const numbers = order.slice(0, rest.itemCount);
			// The same number twice in one run: only where a customized text still tells them apart.
			if (duplicate && rest.customized && scenario.batched) numbers[1] = numbers[0];
			return {
				...rest,
				// Only the answers this run can use, so a printed counterexample holds nothing else.
				answers: rest.answers.slice(0, rest.itemCount),
				numbers,
				listing: scenario.readsBefore > 0 ? rest.listing : undefined,
			};
		});
}

/**
 * How long the run may take: each request at its Timeout per attempt plus the waits between
 * attempts, the listings once (twice when the first one fails), the items' own requests in rounds
 * of Items in Parallel, and a margin for n8n's engine.
 */
export function boundMs(scenario: Scenario, draw: RunDraw): number {
	const units = scenario.batched
		? Math.ceil(draw.itemCount / Math.max(1, draw.recipientsPerRequest))
		: draw.itemCount;
	const rounds = Math.ceil(units / draw.concurrency);
	// A 1 s wait budget fits at most two more attempts (backoff from 250 ms).
	const attempts = draw.maxRateLimitWait > 0 ? 3 : 1;
	const perCall = attempts * TIMEOUT_SECONDS * 1000 + draw.maxRateLimitWait * 1000;
	const listings = scenario.readsBefore * (draw.listing ? 2 : 1);
	return (listings + rounds) * perCall + 2_000;
}
