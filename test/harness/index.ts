// Runs a node inside n8n-core's real execution machinery, like n8n's own NodeTestHarness
// (packages/core/nodes-testing/node-test-harness.ts): a one-node Workflow whose node is the
// start node, executed by WorkflowExecute.processRunExecutionData with ExecutionLifecycleHooks.
// Inside the node, `this` is n8n-core's real ExecuteContext: getNodeParameter resolves
// expressions, helpers.httpRequestWithAuthentication does real HTTP after the credentials
// helper below authenticated the request, binary helpers go through the real
// BinaryDataService, and continueOnFail()/onError are the real thing.
//
// Load options, list search and resource mapping methods run in n8n-core's LoadOptionsContext,
// built the way n8n's DynamicNodeParametersService builds it.
//
// Requires test/harness/setup-env.ts in jest's `setupFiles` (it points N8N_USER_FOLDER at a
// temporary folder before n8n-core is loaded).
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';

import { Container } from '@n8n/di';
import {
	ExecuteContext,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
} from 'n8n-core';
import {
	createDeferredPromise,
	createRunExecutionData,
	NodeApiError,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';
import type {
	ExecutionError,
	ICredentialDataDecryptedObject,
	ICredentialType,
	INode,
	INodeCredentials,
	IExecuteFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodePropertyOptions,
	INodeType,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	JsonObject,
	ResourceMapperFields,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { recordForSecretScan } from '../secret-scan/record';
import { HARNESS_WORKFLOW_ID, removeBinaryDataFolders } from './binary-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { sshClientsManagerClass } from './n8n-core-internals';
import {
	defaultTypeVersion,
	fullNodeTypeName,
	HarnessCredentialTypes,
	HarnessNodeTypes,
} from './registries';

export { binaryItem, databaseFileReads, getBinaryDataMode, useBinaryDataMode } from './binary-data';
export type { BinaryDataMode } from './binary-data';
export { HarnessCredentialsHelper } from './credentials-helper';
export { HarnessCredentialTypes, HarnessNodeTypes, fullNodeTypeName } from './registries';

const BASE_URL = 'http://localhost:5678';

export type OnErrorSetting = NonNullable<INode['onError']>;

export interface RunNodeOptions {
	nodeType: INodeType | IVersionedNodeType;
	credentialTypes?: ICredentialType[];
	/** The node's parameters; may hold expressions like '={{ $json.phone }}'. */
	parameters: INodeParameters;
	/** Decrypted credential data by credential type name, e.g. `{ smsLeopardApi: {...} }`. */
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Input items of the node's main input 0. Default `[{ json: {} }]`. */
	items?: INodeExecutionData[];
	/** "On Error: Continue" — sets `node.onError = 'continueRegularOutput'`. */
	continueOnFail?: boolean;
	/** Explicit node setting, wins over continueOnFail (e.g. 'continueErrorOutput'). */
	onError?: OnErrorSetting;
	typeVersion?: number;
	/** Default 'SmsLeopard'. */
	nodeName?: string;
	/** Default 'manual' (a run from the editor). */
	mode?: WorkflowExecuteMode;
}

export interface RunNodeResult {
	/** Main output 0 of the node (json, binary and pairedItem as the node returned them). */
	items: INodeExecutionData[];
	/** All main outputs (with onError 'continueErrorOutput' the last one is the error output). */
	outputs: INodeExecutionData[][];
	/**
	 * The node's error when it threw: the object WorkflowExecute recorded (a copy of the thrown
	 * NodeOperationError/NodeApiError's own fields plus message and stack: description,
	 * context.itemIndex, httpCode, node, …). Set with continueOnFail too when the node threw
	 * as a whole instead of handling the item itself.
	 */
	error?: ExecutionError;
	run: IRun;
}

let executionCounter = 0;
/**
 * Not exported from n8n-core's index: the one internal the harness needs, to stop its 60 s cleanup
 * interval (see shutdownHarness). Resolved when the harness loads, so a moved path fails every test
 * file at once with the path and n8n-core's version (n8n-core-internals.ts).
 */
const SSHClientsManager = sshClientsManagerClass();
/** Set once an n8n-core node context exists: creating one instantiates SSHClientsManager. */
let contextsCreated = false;
/** For helpers in other files that create an n8n-core context (webhook-context.ts). */
export function noteContextCreated(): void {
	contextsCreated = true;
}

export function nodeCredentialsFor(
	credentials: Record<string, ICredentialDataDecryptedObject> | undefined,
): INodeCredentials | undefined {
	if (!credentials || Object.keys(credentials).length === 0) return undefined;
	const nodeCredentials: INodeCredentials = {};
	for (const type of Object.keys(credentials)) {
		nodeCredentials[type] = { id: `${type}-test-id`, name: `${type} (test)` };
	}
	return nodeCredentials;
}

export function buildAdditionalData(
	credentialsHelper: HarnessCredentialsHelper,
	executionId: string | undefined,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	return {
		credentialsHelper,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		currentNodeParameters: undefined,
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		variables: {},
		userId: 'harness-user',
		externalSecretsProxy: new ExternalSecretsProxy(),
		executeWorkflow: async () => {
			throw new UnexpectedError('Executing sub-workflows is not supported by the test harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new UnexpectedError('Task runners are not supported by the test harness');
		},
	};
}

export function buildNode(
	options: Pick<
		RunNodeOptions,
		'nodeType' | 'parameters' | 'credentials' | 'typeVersion' | 'nodeName'
	>,
): INode {
	const node: INode = {
		id: randomUUID(),
		name: options.nodeName ?? 'SmsLeopard',
		type: fullNodeTypeName(options.nodeType),
		typeVersion: options.typeVersion ?? defaultTypeVersion(options.nodeType),
		position: [0, 0],
		// Copied: `new Workflow()` fills in defaults on the node's parameter object.
		parameters: structuredClone(options.parameters),
	};
	const credentials = nodeCredentialsFor(options.credentials);
	if (credentials) node.credentials = credentials;
	return node;
}

/** Runs the node once as the start node of a one-node workflow and returns what it produced. */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	const nodeTypes = new HarnessNodeTypes([options.nodeType]);
	const credentialsHelper = new HarnessCredentialsHelper(
		new HarnessCredentialTypes(options.credentialTypes ?? []),
		options.credentials ?? {},
	);

	const node = buildNode(options);
	const onError = options.onError ?? (options.continueOnFail ? 'continueRegularOutput' : undefined);
	if (onError) node.onError = onError;

	const workflow = new Workflow({
		id: HARNESS_WORKFLOW_ID,
		name: 'Test harness',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});

	const executionId = `harness-${++executionCounter}`;
	const mode = options.mode ?? 'manual';
	const workflowData = {
		id: workflow.id,
		name: workflow.name,
		active: false,
		isArchived: false,
		nodes: [node],
		connections: {},
		settings: workflow.settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as unknown as IWorkflowBase;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
	const finished = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => finished.resolve(fullRunData));

	const additionalData = buildAdditionalData(credentialsHelper, executionId, hooks);

	const startNode = workflow.getNode(node.name);
	if (!startNode) throw new UnexpectedError('Node missing from the harness workflow');
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{
					node: startNode,
					data: { main: [options.items ?? [{ json: {} }]] },
					source: null,
				},
			],
		},
	});

	contextsCreated = true;
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	await workflowExecute.processRunExecutionData(workflow);
	const run = await finished.promise;

	const taskData = run.data.resultData.runData[node.name]?.[0];
	const outputs = (taskData?.data?.main ?? []).map((output) => output ?? []);
	const error = (taskData?.error ?? run.data.resultData.error) as ExecutionError | undefined;
	recordForSecretScan('node run', { outputs, error });
	return { items: outputs[0] ?? [], outputs, error, run };
}

// ---------------------------------------------------------------------------------------------
// Load options / list search / resource mapping

export interface NodeMethodOptions {
	nodeType: INodeType | IVersionedNodeType;
	credentialTypes?: ICredentialType[];
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	methodName: string;
	/** The node's parameters (`this.getNodeParameter`). */
	parameters: INodeParameters;
	/**
	 * What the editor sends as the node's current parameters (`this.getCurrentNodeParameter(s)`).
	 * Defaults to `parameters`, as in n8n where both come from the same request.
	 */
	currentNodeParameters?: INodeParameters;
	/** Path of the parameter being loaded, e.g. 'parameters.templateId' (for '&sibling' lookups). */
	path?: string;
	typeVersion?: number;
}

export interface ListSearchOptions extends NodeMethodOptions {
	filter?: string;
	paginationToken?: string;
}

type MethodKind = 'loadOptions' | 'listSearch' | 'resourceMapping';

function createLoadOptionsContext(options: NodeMethodOptions, kind: MethodKind) {
	const nodeTypes = new HarnessNodeTypes([options.nodeType]);
	const typeName = fullNodeTypeName(options.nodeType);
	const nodeType = nodeTypes.getByNameAndVersion(
		typeName,
		options.typeVersion ?? defaultTypeVersion(options.nodeType),
	);
	const method = nodeType.methods?.[kind]?.[options.methodName];
	if (typeof method !== 'function') {
		throw new UnexpectedError(
			`Node type "${nodeType.description.name}" has no methods.${kind}.${options.methodName}`,
		);
	}

	const credentialsHelper = new HarnessCredentialsHelper(
		new HarnessCredentialTypes(options.credentialTypes ?? []),
		options.credentials ?? {},
	);
	// Like DynamicNodeParametersService.getWorkflow: a temporary one-node workflow.
	const node = buildNode({ ...options, nodeName: 'Temp-Node' });
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes,
	});
	const additionalData = buildAdditionalData(credentialsHelper, undefined);
	additionalData.currentNodeParameters = structuredClone(
		options.currentNodeParameters ?? options.parameters,
	);
	contextsCreated = true;
	const context = new LoadOptionsContext(
		workflow,
		workflow.nodes[node.name],
		additionalData,
		options.path ?? `parameters.${options.methodName}`,
	);
	return { context, method: method as (...args: unknown[]) => Promise<unknown> };
}

/** Calls `nodeType.methods.loadOptions[methodName]` with n8n-core's LoadOptionsContext. */
export async function callLoadOptions(options: NodeMethodOptions): Promise<INodePropertyOptions[]> {
	const { context, method } = createLoadOptionsContext(options, 'loadOptions');
	return (await method.call(context)) as INodePropertyOptions[];
}

/** Calls `nodeType.methods.listSearch[methodName](filter, paginationToken)`. */
export async function callListSearch(options: ListSearchOptions): Promise<INodeListSearchResult> {
	const { context, method } = createLoadOptionsContext(options, 'listSearch');
	return (await method.call(
		context,
		options.filter,
		options.paginationToken,
	)) as INodeListSearchResult;
}

/** Calls `nodeType.methods.resourceMapping[methodName]` (duplicate field ids dropped, like n8n). */
export async function callResourceMapping(
	options: NodeMethodOptions,
): Promise<ResourceMapperFields> {
	const { context, method } = createLoadOptionsContext(options, 'resourceMapping');
	const fields = (await method.call(context)) as ResourceMapperFields;
	const seen = new Set<string>();
	return {
		...fields,
		fields: fields.fields?.filter((field) => {
			if (seen.has(field.id)) return false;
			seen.add(field.id);
			return true;
		}),
	};
}

/**
 * Whether this n8n-workflow keeps an Error as the `cause` of the NodeApiError wrapping it. n8n's
 * CredentialsTester reads a declarative test's rules for error answers from `error.cause.response`;
 * up to n8n 2.8 ExecutionBaseError's `cause` field reset it, so those rules never matched and the
 * Test showed n8n's own words for the status (fixed by 2.41.1).
 */
export function n8nKeepsErrorCause(): boolean {
	const node = { id: '1', name: 'x', type: 'x', typeVersion: 1, position: [0, 0], parameters: {} };
	// n8n-workflow types the second argument as a JSON object, though it wraps Errors too.
	return (
		new NodeApiError(node as INode, new Error('x') as unknown as JsonObject).cause !== undefined
	);
}

/** What a credential's Test button shows: n8n's INodeCredentialTestResult. */
export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/**
 * Runs a credential type's declarative `test` as n8n's CredentialsTester does (packages/cli,
 * credentials-tester.service.ts, the branch for a `test` on the credential type, the same from
 * 1.123 to 2.41): a temporary node whose one property routes the test request, run by n8n-core's
 * real RoutingNode in a real ExecuteContext, so the request goes through the credential's
 * authenticate and n8n's HTTP helper; then the test's rules read the answer. The CLI package is
 * not installed here, so that last reading is repeated below; the e2e suite runs the real one.
 */
export async function runCredentialTest(
	credentialType: ICredentialType,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const { test } = credentialType;
	if (!test || typeof test !== 'object') {
		throw new UnexpectedError(`${credentialType.name} declares no credential test`);
	}
	const testNodeType: INodeType = {
		description: {
			displayName: 'Temp',
			name: 'credentialTestTemp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Temp-Node' },
			inputs: [],
			outputs: [],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
	const credentialsHelper = new HarnessCredentialsHelper(
		new HarnessCredentialTypes([credentialType]),
		{ [credentialType.name]: data },
	);
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: fullNodeTypeName(testNodeType),
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: '1', name: credentialType.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes([testNodeType]),
	});
	const additionalData = buildAdditionalData(credentialsHelper, undefined);
	contextsCreated = true;
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({}),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const decrypted = { id: '1', name: credentialType.name, type: credentialType.name, data };
	let response: INodeExecutionData[][] | null | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, decrypted).runNode();
	} catch (caught) {
		const error = caught as {
			message: string;
			cause?: { code?: string; response?: { status: number; statusText?: string } };
		};
		const answer = error.cause?.response;
		if (answer) {
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === answer.status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (answer.status < 199 || answer.status > 299) {
				return {
					status: 'Error',
					message: answer.statusText || `Received HTTP status code: ${answer.status}`,
				};
			}
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type !== 'responseSuccessBody') continue;
		const json = response?.[0]?.[0]?.json as Record<string, unknown> | undefined;
		if (json?.[rule.properties.key] === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

// ---------------------------------------------------------------------------------------------
// Cleanup. This module is loaded once per test file (jest gives every file its own registry).

/**
 * n8n-core's real ExecuteContext for `nodeType` with `parameters`, given `items` as its input: what
 * n8n hands a node's execute(), for asking n8n itself what a parameter reads as per item.
 */
export function executeContextFor(
	options: Pick<RunNodeOptions, 'nodeType' | 'parameters' | 'typeVersion'> & {
		items: INodeExecutionData[];
	},
): IExecuteFunctions {
	const node = buildNode(options);
	const workflow = new Workflow({
		id: HARNESS_WORKFLOW_ID,
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: new HarnessNodeTypes([options.nodeType]),
		settings: { executionOrder: 'v1' },
	});
	const additionalData = buildAdditionalData(
		new HarnessCredentialsHelper(new HarnessCredentialTypes([]), {}),
		undefined,
	);
	contextsCreated = true;
	// `new Workflow()` filled in the node's defaults: the context reads that node, as n8n's does.
	const filled = workflow.getNode(node.name) ?? node;
	return new ExecuteContext(
		workflow,
		filled,
		additionalData,
		'manual',
		createRunExecutionData({}),
		0,
		options.items,
		{ main: [options.items] },
		{ node: filled, data: { main: [options.items] }, source: null },
		[],
	);
}

/**
 * Releases what the harness and n8n-core leave behind: n8n-core's SSHClientsManager (created
 * with every node context's helpers) runs a 60-second setInterval that it only clears on
 * `process.on('exit')`, which never fires inside jest's sandboxed `process`, so jest would
 * not exit; also removes the temporary binary-data and N8N_USER_FOLDER folders.
 * Registered as an afterAll hook automatically; call it yourself outside jest.
 */
export function shutdownHarness(): void {
	if (contextsCreated) {
		Container.get(SSHClientsManager).onShutdown();
		contextsCreated = false;
	}
	removeBinaryDataFolders();
	const userFolder = process.env.N8N_HARNESS_USER_FOLDER;
	if (userFolder && userFolder === process.env.N8N_USER_FOLDER) {
		rmSync(userFolder, { recursive: true, force: true });
	}
}

if (typeof afterAll === 'function') afterAll(shutdownHarness);
