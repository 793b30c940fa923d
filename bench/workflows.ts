/**
 * The benchmark workflows: the same items sent by this node (default settings, 50 in parallel) and by
 * n8n's HTTP Request node, group listing, and a large file read and uploaded both ways.
 */
import {
	type WorkflowNode,
	code,
	locator,
	node,
	smsLeopard,
	trigger,
	workflow,
} from '../test/e2e/workflows/build';
import type { WorkflowJson } from '../test/e2e/harness';
import { BARE_SENDER_TYPE, BARE_SPACING_MS } from './bare-sender';

/** This node's credential for the timing benchmarks: the reply server's hosts. */
export const SMSLEOPARD_CREDENTIAL = { id: 'benchSmsLeopard01', name: 'SMSLeopard bench' };
/** This node's credential for what needs the sandbox's behaviour (groups paging, uploads). */
export const SANDBOX_CREDENTIAL = { id: 'benchSmsLeopardSbx', name: 'SMSLeopard bench (sandbox)' };
/** The HTTP Request node's credentials, the two ways its users store a key. */
export const BASIC_AUTH_CREDENTIAL = { id: 'benchBasicAuth0001', name: 'SMSLeopard bench (basic)' };
export const HEADER_AUTH_CREDENTIAL = {
	id: 'benchHeaderAuth001',
	name: 'SMSLeopard bench (header)',
};

export const SENDER = '110000000000001';
/** No variables: the simplest send, so the figures are about requests, not about templates. */
export const TEMPLATE_ID = 'tpl_book_flow';

/** The node under test in each workflow is named this; the item source is named `ITEMS`. */
export const TARGET = 'Target';
export const ITEMS = 'Items';

/** `count` distinct Kenyan numbers, +25471 and 7 digits. */
export function destinations(count: number): string[] {
	return Array.from({ length: count }, (_, index) => `+25471${String(index).padStart(7, '0')}`);
}

/** A Code node making `count` items, each with its own `phone`. */
function recipients(count: number): WorkflowNode {
	return code(
		ITEMS,
		`Array.from({ length: ${count} }, (_, i) => ({ json: { phone: '+25471' + String(i).padStart(7, '0') } }))`,
	);
}

/** A workflow: the trigger, `count` Code node items, then the node under test (none: the baseline). */
function itemsWorkflow(
	id: string,
	name: string,
	count: number,
	target?: WorkflowNode,
): WorkflowJson {
	const nodes = [trigger(), recipients(count)];
	return { id, ...workflow(name, [target ? [...nodes, target] : nodes]) };
}

const basicAuth = {
	authentication: 'genericCredentialType',
	genericAuthType: 'httpBasicAuth',
};
const basicAuthCredentials = { httpBasicAuth: BASIC_AUTH_CREDENTIAL };

/**
 * How the HTTP Request node carries the key, as its users set it up: typed into a header parameter
 * (no credential: its fastest, and the key sits in the workflow), a Header Auth credential, or a
 * Basic Auth credential.
 */
export type HttpAuth =
	| { kind: 'headerParameter'; authorization: string }
	| { kind: 'headerAuth' }
	| { kind: 'basicAuth' };

function httpAuth(auth: HttpAuth): {
	parameters: Record<string, unknown>;
	credentials?: Record<string, { id: string; name: string }>;
} {
	switch (auth.kind) {
		case 'headerParameter':
			return {
				parameters: {
					authentication: 'none',
					sendHeaders: true,
					headerParameters: {
						parameters: [{ name: 'Authorization', value: auth.authorization }],
					},
				},
			};
		case 'headerAuth':
			return {
				parameters: { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' },
				credentials: { httpHeaderAuth: HEADER_AUTH_CREDENTIAL },
			};
		case 'basicAuth':
			return { parameters: basicAuth, credentials: basicAuthCredentials };
	}
}

/** This node sending TEMPLATE_ID to every item's phone, with the given request options. */
function sendNode(requestOptions: Record<string, unknown>): WorkflowNode {
	return smsLeopard(TARGET, SMSLEOPARD_CREDENTIAL, {
		resource: 'message',
		operation: 'sendTemplate',
		senderNumber: locator(SENDER),
		template: locator(TEMPLATE_ID),
		destination: '={{ $json.phone }}',
		variablesMode: 'template',
		templateFields: { mappingMode: 'defineBelow', value: null },
		requestOptions,
	});
}

/**
 * The yardstick (bare-sender.ts): the same body, one expression per item, 10 requests in flight
 * through n8n's httpRequestWithAuthentication with this node's credential, and nothing else; its
 * starts at once, or `spacingMs` apart. `pastN8n`: through Node's own http with a keep-alive agent
 * instead, to measure n8n's HTTP stack (no node should send so: it skips n8n's checks).
 */
function bareSenderNode(
	chatUrl: string,
	channel: string,
	spacingMs = 0,
	pastN8n = false,
): WorkflowNode {
	return node(
		TARGET,
		BARE_SENDER_TYPE,
		1,
		{
			url: `${chatUrl}/v1/${channel}/send`,
			sender: SENDER,
			template: TEMPLATE_ID,
			destination: '={{ $json.phone }}',
			inFlight: 10,
			spacingMs,
			pastN8n,
		},
		{ credentials: { smsLeopardApi: SMSLEOPARD_CREDENTIAL } },
	);
}

/** n8n's HTTP Request node posting the same send body, one request per item. */
function httpSendNode(
	chatUrl: string,
	channel: string,
	auth: HttpAuth,
	how: {
		continueOnFail?: boolean;
		/** At its best under a known limit: batches of the limit per second, Retry On Fail. */
		best?: { perSecond: number };
		/** Batching without a limit: `size` requests at a time, no pause. */
		batchSize?: number;
	} = {},
): WorkflowNode {
	const body = `={{ JSON.stringify({ phone_number_id: '${SENDER}', template_id: '${TEMPLATE_ID}', destination: $json.phone, component_list: { components: [] } }) }}`;
	const { parameters, credentials } = httpAuth(auth);
	const { best, batchSize } = how;
	const batching = best
		? { batch: { batchSize: best.perSecond, batchInterval: 1000 } }
		: batchSize
			? { batch: { batchSize, batchInterval: 0 } }
			: undefined;
	return node(
		TARGET,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${chatUrl}/v1/${channel}/send`,
			...parameters,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody: body,
			options: batching ? { batching } : {},
		},
		{
			...(credentials ? { credentials } : {}),
			...(how.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
			// Retry On Fail (5 tries, 1 s apart). n8n re-runs the whole node, all items, and only when it
			// throws: with On Error: Continue it does not, so failed items show instead of a stopped run.
			...(best ? { retryOnFail: true, maxTries: 5, waitBetweenTries: 1000 } : {}),
		},
	);
}

/** The HTTP Request node variants of benchmark 1, each as its users set it up. */
export const HTTP_SEND_VARIANTS = [
	'httpHeaderParameter',
	'httpHeaderAuth',
	'httpBasicAuth',
	'httpHeaderAuthBatched',
] as const;
export type HttpSendVariant = (typeof HTTP_SEND_VARIANTS)[number];

/**
 * The share of a known limit the node's Max Requests per Second is set to in the limiter bench:
 * 0.95 (the README's advice), or BENCH_KNOWN_LIMIT_SHARE (a number between 0 and 1).
 */
export const KNOWN_LIMIT_SHARE = knownLimitShare(process.env.BENCH_KNOWN_LIMIT_SHARE);

function knownLimitShare(text: string | undefined): number {
	if (text === undefined || text === '') return 0.95;
	const share = Number(text);
	if (!(share > 0 && share <= 1))
		throw new Error(`BENCH_KNOWN_LIMIT_SHARE: ${text} is not in (0, 1]`);
	return share;
}

/** The sends of benchmarks 1 and 2: Code node items, then the sender under test. */
export function sendWorkflows(
	count: number,
	target: { chatUrl: string; channel: string; authorization: string },
	ratePerSecond = 100,
): Record<
	| 'baseline'
	| 'nodeDefault'
	| 'nodeConcurrency50'
	| 'nodeKnownLimit'
	| 'bareSender'
	| 'bareSenderSpaced'
	| 'bareSenderPastN8n'
	| HttpSendVariant
	| 'httpRequestBest',
	WorkflowJson
> {
	const { chatUrl, channel, authorization } = target;
	const make = (id: string, name: string, target?: WorkflowNode) =>
		itemsWorkflow(id, name, count, target);
	const http = (auth: HttpAuth, how?: Parameters<typeof httpSendNode>[3]) =>
		httpSendNode(chatUrl, channel, auth, how);
	return {
		baseline: make('benchItemsOnly', `bench: ${count} items only`),
		nodeDefault: make('benchSendDefault', `bench: node, defaults`, sendNode({})),
		nodeConcurrency50: make(
			'benchSendConc50',
			`bench: node, 50 in parallel`,
			sendNode({ concurrency: 50 }),
		),
		// As the README advises for a known limit: Max Requests per Second a few percent below it.
		nodeKnownLimit: make(
			'benchSendKnownLimit',
			`bench: node, Max Requests per Second ${KNOWN_LIMIT_SHARE * ratePerSecond}`,
			sendNode({ requestsPerSecond: KNOWN_LIMIT_SHARE * ratePerSecond }),
		),
		bareSender: make(
			'benchBareSender',
			'bench: bare node, 10 in flight, starts at once',
			bareSenderNode(chatUrl, channel),
		),
		bareSenderSpaced: make(
			'benchBareSenderSpaced',
			`bench: bare node, 10 in flight, starts ${BARE_SPACING_MS} ms apart`,
			bareSenderNode(chatUrl, channel, BARE_SPACING_MS),
		),
		bareSenderPastN8n: make(
			'benchBarePastN8n',
			`bench: bare node, 10 in flight, starts ${BARE_SPACING_MS} ms apart, past n8n's HTTP stack`,
			bareSenderNode(chatUrl, channel, BARE_SPACING_MS, true),
		),
		httpHeaderParameter: make(
			'benchHttpHeaderParam',
			'bench: HTTP Request, key typed into a header parameter',
			http({ kind: 'headerParameter', authorization }),
		),
		httpHeaderAuth: make(
			'benchHttpHeaderAuth',
			'bench: HTTP Request, Header Auth credential',
			http({ kind: 'headerAuth' }),
		),
		httpBasicAuth: make(
			'benchHttpBasicAuth',
			'bench: HTTP Request, Basic Auth credential',
			http({ kind: 'basicAuth' }),
		),
		httpHeaderAuthBatched: make(
			'benchHttpBatched50',
			'bench: HTTP Request, Header Auth credential, batches of 50',
			http({ kind: 'headerAuth' }, { batchSize: 50 }),
		),
		httpRequestBest: make(
			'benchSendHttpBest',
			'bench: HTTP Request, batching at the limit, Retry On Fail',
			http({ kind: 'headerAuth' }, { continueOnFail: true, best: { perSecond: ratePerSecond } }),
		),
	};
}

/**
 * A Code node turning each item into one shaped like this node's send output (the same fields, a
 * distinct message id each): what n8n keeps of the node's output alone, for the live-heap baseline.
 */
function sendOutputLookalikes(): WorkflowNode {
	return code(
		TARGET,
		`$input.all().map((item, i) => ({ json: { recipient: item.json.phone, number: item.json.phone, messageId: 'wamid.SBX' + String(i).padStart(8, '0') + '11D063C49DA', status: 'Success', cost: 0.8, currency: null, templateName: 'book_flow', templateId: '${TEMPLATE_ID}', phoneNumberId: '${SENDER}' } }))`,
	);
}

/**
 * The scale benchmark's two sizes: the node at defaults, the HTTP Request node without limits, the
 * Code-node-only baseline of the same shape, and Code nodes making items like the node's output.
 */
export function scaleWorkflows(
	small: number,
	large: number,
	target: { chatUrl: string; channel: string; authorization: string },
): Record<
	'small' | 'large',
	Record<'baseline' | 'outputLookalikes' | 'nodeDefault' | 'httpRequest', WorkflowJson>
> {
	const size = (key: string, count: number) => ({
		baseline: itemsWorkflow(`benchScale${key}Items`, `bench: ${count} items only`, count),
		outputLookalikes: itemsWorkflow(
			`benchScale${key}Shaped`,
			`bench: ${count} items shaped like sends`,
			count,
			sendOutputLookalikes(),
		),
		nodeDefault: itemsWorkflow(
			`benchScale${key}Sends`,
			`bench: node, ${count} sends, defaults`,
			count,
			sendNode({}),
		),
		httpRequest: itemsWorkflow(
			`benchScale${key}Http`,
			`bench: HTTP Request, ${count} sends`,
			count,
			httpSendNode(target.chatUrl, target.channel, {
				kind: 'headerParameter',
				authorization: target.authorization,
			}),
		),
	});
	return { small: size('Small', small), large: size('Large', large) };
}

export function groupsWorkflow(): WorkflowJson {
	return {
		id: 'benchGroupsAll',
		...workflow('bench: groups, return all', [
			[
				trigger(),
				smsLeopard(TARGET, SANDBOX_CREDENTIAL, {
					resource: 'group',
					operation: 'getAll',
					returnAll: true,
				}),
			],
		]),
	};
}

export const READ_NODE = 'Read File';

/** Read/Write Files reading `fileSelector` (a path, or an expression giving one) into `data`. */
export const readFileNode = (fileSelector: string): WorkflowNode =>
	node(READ_NODE, 'n8n-nodes-base.readWriteFile', 1, {
		operation: 'read',
		fileSelector,
		options: {},
	});

/** This node's Media > Upload of binary `data` for the bench's sender. */
export const nodeMediaUpload = (credential: { id: string; name: string }): WorkflowNode =>
	smsLeopard(TARGET, credential, {
		resource: 'media',
		operation: 'upload',
		senderNumber: locator(SENDER),
		binaryPropertyName: 'data',
	});

/** n8n's HTTP Request node uploading binary `data` as multipart with a Basic Auth credential. */
export const httpMediaUpload = (
	chatUrl: string,
	channel: string,
	credential: { id: string; name: string } = BASIC_AUTH_CREDENTIAL,
): WorkflowNode =>
	node(
		TARGET,
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'POST',
			url: `${chatUrl}/v1/${channel}/media`,
			...basicAuth,
			sendBody: true,
			contentType: 'multipart-form-data',
			bodyParameters: {
				parameters: [
					{ parameterType: 'formBinaryData', name: 'file', inputDataFieldName: 'data' },
					{ parameterType: 'formData', name: 'phone_number_id', value: SENDER },
				],
			},
			options: {},
		},
		{ credentials: { httpBasicAuth: credential } },
	);

/** Benchmark 4: read a local file into binary `data`, then optionally upload it. */
export function uploadWorkflows(
	filePath: string,
	chatUrl: string,
	channel: string,
): Record<'readOnly' | 'nodeUpload' | 'httpUpload', WorkflowJson> {
	const read = () => readFileNode(filePath);
	const nodeUpload = nodeMediaUpload(SANDBOX_CREDENTIAL);
	const httpUpload = httpMediaUpload(chatUrl, channel);
	return {
		readOnly: { id: 'benchReadOnly', ...workflow('bench: read file', [[trigger(), read()]]) },
		nodeUpload: {
			id: 'benchUploadNode',
			...workflow('bench: read + node upload', [[trigger(), read(), nodeUpload]]),
		},
		httpUpload: {
			id: 'benchUploadHttp',
			...workflow('bench: read + HTTP Request upload', [[trigger(), read(), httpUpload]]),
		},
	};
}
