/** The SMSLeopard node in n8n-core's real engine, pointed at an in-process sandbox. */
import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { KEPT_LISTINGS } from '../../nodes/SmsLeopard/helpers/kept-listings';
import { type LostAnswer, lostAnswer } from '../sandbox/lost-answer';
import {
	type OnErrorSetting,
	type RunNodeResult,
	callListSearch,
	callLoadOptions,
	callResourceMapping,
	runNode,
} from '../harness';
import {
	SENDERS,
	TEMPLATES,
	type Sandbox,
	type SandboxHooks,
	type SandboxOptions,
	startSandbox,
} from '../sandbox';

// Every test starts from an empty process memory: listings kept by an earlier test's executions
// (same sandbox, same credential) would otherwise answer for this one's.
beforeEach(() => KEPT_LISTINGS.forgetAll());

export const senderLocator = { __rl: true, mode: 'list', value: SENDERS.primary.phone_number_id };
export const templateLocator = (id: string) => ({ __rl: true, mode: 'id', value: id });

/** Send Template with the Flow template (nothing to fill in) to each item's `phone`. */
export const flowSendParameters = {
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	destination: '={{ $json.phone }}',
	template: templateLocator(TEMPLATES.flow.id),
	variablesMode: 'define',
};

/** Send Template of `templateId` "From the Template" to each item's `phone`; `extra` overrides. */
export const templateSendParameters = (
	templateId: string,
	extra: Record<string, unknown> = {},
): INodeParameters => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(templateId),
	destination: '={{ $json.phone }}',
	variablesMode: 'template',
	...(extra as INodeParameters),
});

/** Send SMS of one text to each item's `phone` from the sandbox's sender ID; `extra` overrides. */
export const smsSendParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'message',
	operation: 'sendSms',
	source: 'SMS_Leopard',
	recipient: '={{ $json.phone }}',
	message: 'Flash sale today only',
	...extra,
});

/** Media > Upload of each item's binary `data` for the sandbox's primary sender; `extra` overrides. */
export const mediaUploadParameters = (extra: Record<string, unknown> = {}) => ({
	resource: 'media',
	operation: 'upload',
	senderNumber: senderLocator,
	binaryPropertyName: 'data',
	...extra,
});

/**
 * Send Template of `template` to each item's `phone`, its header file from the item's binary
 * `brochure`, variables as the template has them; `extra` overrides.
 */
export const binaryHeaderSendParameters = (
	template: string,
	extra: Record<string, unknown> = {},
) => ({
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	template: templateLocator(template),
	destination: '={{ $json.phone }}',
	variablesMode: 'template',
	headerMedia: 'binary',
	binaryPropertyName: 'brochure',
	...extra,
});

export interface NodeEnv {
	sandbox: Sandbox;
	credentials: { smsLeopardApi: Record<string, string> };
	run(
		parameters: INodeParameters,
		items?: INodeExecutionData[],
		options?: {
			continueOnFail?: boolean;
			onError?: OnErrorSetting;
			apiSecret?: string;
			/** The credential's Webhook Secret (none by default). */
			webhookSecret?: string;
			chatUrl?: string;
			contactsUrl?: string;
			/** The node's version; default the newest. */
			typeVersion?: number;
		},
	): Promise<RunNodeResult>;
	listSearch(
		methodName: string,
		parameters: INodeParameters,
		filter?: string,
	): ReturnType<typeof callListSearch>;
	loadOptions(methodName: string, parameters: INodeParameters): ReturnType<typeof callLoadOptions>;
	/** `typeVersion`: the node's version (default the newest), whose editor asks for the fields. */
	resourceMapping(
		methodName: string,
		parameters: INodeParameters,
		typeVersion?: number,
	): ReturnType<typeof callResourceMapping>;
	sends(): Array<Record<string, unknown>>;
	stop(): Promise<void>;
}

export async function startNodeEnv(
	options: SandboxOptions = {},
	hooks: SandboxHooks = {},
): Promise<NodeEnv> {
	const sandbox = await startSandbox(options, hooks);
	const credentialData = { ...sandbox.credentialData };
	const credentials = { smsLeopardApi: credentialData };
	const common = {
		nodeType: new SmsLeopard(),
		credentialTypes: [new SmsLeopardApi()],
		credentials,
	};
	return {
		sandbox,
		credentials,
		run: async (parameters, items, runOptions = {}) =>
			await runNode({
				...common,
				credentials: {
					smsLeopardApi: {
						...credentialData,
						...(runOptions.apiSecret ? { apiSecret: runOptions.apiSecret } : {}),
						...(runOptions.webhookSecret ? { webhookSecret: runOptions.webhookSecret } : {}),
						...(runOptions.chatUrl ? { chatUrl: runOptions.chatUrl } : {}),
						...(runOptions.contactsUrl ? { contactsUrl: runOptions.contactsUrl } : {}),
					},
				},
				parameters,
				items,
				continueOnFail: runOptions.continueOnFail,
				onError: runOptions.onError,
				typeVersion: runOptions.typeVersion,
			}),
		listSearch: async (methodName, parameters, filter) =>
			await callListSearch({ ...common, methodName, parameters, filter }),
		loadOptions: async (methodName, parameters) =>
			await callLoadOptions({ ...common, methodName, parameters }),
		resourceMapping: async (methodName, parameters, typeVersion) =>
			await callResourceMapping({ ...common, methodName, parameters, typeVersion }),
		sends: () =>
			sandbox.requests
				.filter((request) => request.path.endsWith('/send'))
				.map((request) => request.body as Record<string, unknown>),
		stop: async () => await sandbox.stop(),
	};
}

export const jsonItems = (...values: Array<Record<string, unknown>>): INodeExecutionData[] =>
	values.map((json) => ({ json: json as INodeExecutionData['json'] }));

/**
 * `count` items each with a `phone` of `prefix` and five digits (`+2547004` and 3: `+254700400003`),
 * plus whatever `extra` adds for its index: a prefix per test keeps their recipients apart.
 */
export const phoneItems = (
	prefix: string,
	count: number,
	extra: (index: number) => Record<string, unknown> = () => ({}),
): INodeExecutionData[] =>
	jsonItems(
		...Array.from({ length: count }, (_, index) => ({
			phone: `${prefix}${String(index).padStart(5, '0')}`,
			...extra(index),
		})),
	);

/** The notes n8n shows above the node's output (execution hints), in order. */
export const hintsOf = (run: RunNodeResult['run']): string[] =>
	(run.data.resultData.runData.SmsLeopard?.[0]?.hints ?? []).map((hint) => hint.message);

/** The sandbox's requests that send, upload or change something (every method but GET). */
export const changingRequests = (env: NodeEnv) =>
	env.sandbox.requests.filter((request) => request.method !== 'GET');

/**
 * The node environment of one test file: started before its tests, its sandbox reset before each,
 * stopped after. Read its members inside tests (they exist once the file's beforeAll has run).
 */
export function useNodeEnv(
	options?: Parameters<typeof startNodeEnv>[0],
	hooks?: SandboxHooks,
	onStarted?: (env: NodeEnv) => void,
): NodeEnv {
	let started: NodeEnv | undefined;
	beforeAll(async () => {
		started = await startNodeEnv(options, hooks);
		onStarted?.(started);
	});
	afterAll(async () => await started?.stop());
	beforeEach(() => started?.sandbox.reset());
	return new Proxy({} as NodeEnv, {
		get(_, key: keyof NodeEnv) {
			if (!started) throw new Error('The node environment is used before its beforeAll ran');
			return started[key];
		},
	});
}

/**
 * useNodeEnv with the sandbox's lost-answer fault (sandbox/lost-answer.ts), disarmed before each
 * test: `lost.onSend(n)` loses the answer of the n-th send from then on.
 */
export function useLostAnswerEnv(): { env: NodeEnv; lost: LostAnswer } {
	const lost = lostAnswer();
	const env = useNodeEnv({}, lost.hooks, (started) => lost.attach(started.sandbox));
	beforeEach(() => lost.onSend(0));
	return { env, lost };
}
