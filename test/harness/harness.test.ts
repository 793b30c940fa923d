// Proves the harness with a throwaway node and throwaway credential types defined here:
// expressions, real HTTP with generic/function authentication, binary data in both storage
// modes, n8n's continueOnFail behaviour, and load options / list search / resource mapping
// through n8n-core's LoadOptionsContext.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { NodeApiError, NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeExecutionData,
	INodeListSearchResult,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
	ResourceMapperFields,
} from 'n8n-workflow';

import {
	binaryItem,
	callListSearch,
	callLoadOptions,
	callResourceMapping,
	getBinaryDataMode,
	runNode,
	useBinaryDataMode,
} from './index';

// ---------------------------------------------------------------------------------------------
// A local HTTP server that reports what it received.

interface SeenRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	headers: IncomingMessage['headers'];
}

const seen: SeenRequest[] = [];
let server: Server;
let baseUrl: string;

function handle(req: IncomingMessage, res: ServerResponse) {
	const url = new URL(req.url ?? '/', 'http://127.0.0.1');
	const request: SeenRequest = {
		method: req.method ?? '',
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers: req.headers,
	};
	seen.push(request);
	const send = (status: number, body: unknown) => {
		res.writeHead(status, { 'Content-Type': 'application/json' });
		res.end(JSON.stringify(body));
	};

	if (url.pathname === '/unauthorized') {
		send(401, { message: 'Invalid API key' });
	} else if (url.pathname === '/templates') {
		send(200, {
			authorization: req.headers.authorization ?? null,
			templates: [
				{ id: 't1', name: 'welcome' },
				{ id: 't2', name: 'reminder' },
			],
		});
	} else if (url.pathname === '/contacts') {
		const all = ['Ada', 'Alan', 'Grace', 'Linus'].filter((name) =>
			name.toLowerCase().includes((request.query.filter ?? '').toLowerCase()),
		);
		const page = Number(request.query.page ?? '1');
		send(200, {
			contacts: all.slice((page - 1) * 2, page * 2),
			next: page * 2 < all.length ? String(page + 1) : null,
		});
	} else {
		send(200, {
			method: request.method,
			path: request.path,
			query: request.query,
			authorization: req.headers.authorization ?? null,
			realm: req.headers['x-realm'] ?? null,
			apiKeyHeader: req.headers['x-api-key'] ?? null,
			signature: req.headers['x-signature'] ?? null,
		});
	}
}

beforeAll(async () => {
	server = createServer(handle);
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve, reject) =>
		server.close((error) => (error ? reject(error) : resolve())),
	);
});

beforeEach(() => {
	seen.length = 0;
});

// ---------------------------------------------------------------------------------------------
// Throwaway credential types

class TestBasicApi implements ICredentialType {
	name = 'testBasicApi';
	displayName = 'Test Basic API';
	properties: ICredentialType['properties'] = [
		{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		// Not in the test data: proves credential-type defaults are applied like in n8n.
		{ displayName: 'Realm', name: 'realm', type: 'string', default: 'harness-realm' },
	];
	authenticate: ICredentialType['authenticate'] = {
		type: 'generic',
		properties: {
			auth: { username: '={{$credentials.apiKey}}', password: '={{$credentials.apiSecret}}' },
			headers: { 'X-Realm': '={{$credentials.realm}}' },
		},
	};
}

class TestHeaderApi implements ICredentialType {
	name = 'testHeaderApi';
	displayName = 'Test Header API';
	properties: ICredentialType['properties'] = [
		{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
	];
	authenticate: ICredentialType['authenticate'] = {
		type: 'generic',
		properties: {
			headers: { 'X-Api-Key': '={{$credentials.apiKey}}' },
			qs: { tenant: '={{ $credentials.apiKey.split("-")[0] }}', fixed: 'yes' },
		},
	};
}

class TestFunctionApi implements ICredentialType {
	name = 'testFunctionApi';
	displayName = 'Test Function API';
	properties: ICredentialType['properties'] = [
		{ displayName: 'Secret', name: 'secret', type: 'string', default: '' },
	];
	authenticate: ICredentialType['authenticate'] = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, 'X-Signature': `sig:${String(credentials.secret)}` },
	});
}

const credentialTypes = [new TestBasicApi(), new TestHeaderApi(), new TestFunctionApi()];
const basicCredentials = { testBasicApi: { apiKey: 'key-123', apiSecret: 'secret-456' } };

// ---------------------------------------------------------------------------------------------
// Throwaway node

async function streamLength(stream: NodeJS.ReadableStream): Promise<number> {
	let length = 0;
	for await (const chunk of stream) length += (chunk as Buffer).length;
	return length;
}

class HarnessProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Probe',
		name: 'harnessProbe',
		group: ['transform'],
		version: [1, 2],
		defaultVersion: 2,
		description: 'Throwaway node for the harness self-test',
		defaults: { name: 'Harness Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'testBasicApi', required: false },
			{ name: 'testHeaderApi', required: false },
			{ name: 'testFunctionApi', required: false },
		],
		properties: [
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Echo', value: 'echo' },
					{ name: 'Binary Length', value: 'binaryLength' },
					{ name: 'Fail Item', value: 'failItem' },
					{ name: 'Fail Node', value: 'failNode' },
				],
				default: 'echo',
			},
			{ displayName: 'Name', name: 'name', type: 'string', default: '' },
			{ displayName: 'Base URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '/echo' },
			{
				displayName: 'Credential Type',
				name: 'credentialType',
				type: 'string',
				default: 'testBasicApi',
			},
			{
				displayName: 'Input Binary Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
			},
			{ displayName: 'Fail On', name: 'failOn', type: 'string', default: '' },
			{
				displayName: 'Template',
				name: 'template',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getTemplates', loadOptionsDependsOn: ['url'] },
				default: '',
			},
			{
				displayName: 'Contact',
				name: 'contact',
				type: 'resourceLocator',
				default: { mode: 'list', value: '' },
				modes: [
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'searchContacts', searchable: true },
					},
				],
			},
		],
	};

	methods = {
		loadOptions: {
			async getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
				const url = this.getNodeParameter('url') as string;
				const prefix = (this.getCurrentNodeParameter('namePrefix') as string | undefined) ?? '';
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'testBasicApi',
					{ url: `${url}/templates`, method: 'GET', json: true },
				)) as { authorization: string; templates: Array<{ id: string; name: string }> };
				return response.templates.map((t) => ({
					name: `${prefix}${t.name}`,
					value: t.id,
					description: response.authorization,
				}));
			},
		},
		listSearch: {
			async searchContacts(
				this: ILoadOptionsFunctions,
				filter?: string,
				paginationToken?: string,
			): Promise<INodeListSearchResult> {
				const url = this.getCurrentNodeParameter('url') as string;
				const response = (await this.helpers.httpRequestWithAuthentication.call(
					this,
					'testBasicApi',
					{
						url: `${url}/contacts`,
						method: 'GET',
						qs: { filter: filter ?? '', page: paginationToken ?? '1' },
						json: true,
					},
				)) as { contacts: string[]; next: string | null };
				return {
					results: response.contacts.map((name) => ({ name, value: name.toLowerCase() })),
					paginationToken: response.next ?? undefined,
				};
			},
		},
		resourceMapping: {
			async getFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
				const field = (id: string) => ({
					id,
					displayName: id,
					required: false,
					defaultMatch: false,
					display: true,
					type: 'string' as const,
				});
				const extra = this.getCurrentNodeParameter('name') as string;
				return { fields: [field('phone'), field('email'), field('phone'), field(extra)] };
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const operation = this.getNodeParameter('operation', 0) as string;
		const returnData: INodeExecutionData[] = [];

		if (operation === 'failNode') {
			throw new NodeOperationError(this.getNode(), 'The whole node failed');
		}

		for (let i = 0; i < items.length; i++) {
			try {
				if (operation === 'echo') {
					const name = this.getNodeParameter('name', i) as string;
					const url = this.getNodeParameter('url', i) as string;
					const path = this.getNodeParameter('path', i) as string;
					const credentialType = this.getNodeParameter('credentialType', i) as string;
					const response = (await this.helpers.httpRequestWithAuthentication.call(
						this,
						credentialType,
						{ url: `${url}${path}`, method: 'GET', qs: { name }, json: true },
					)) as IDataObject;
					returnData.push({
						json: { name, typeVersion: this.getNode().typeVersion, response },
						pairedItem: { item: i },
					});
				} else if (operation === 'binaryLength') {
					const field = this.getNodeParameter('binaryPropertyName', i) as string;
					const binary = this.helpers.assertBinaryData(i, field);
					const bufferLength = (await this.helpers.getBinaryDataBuffer(i, field)).length;
					const streamed = binary.id
						? await streamLength(await this.helpers.getBinaryStream(binary.id))
						: null;
					returnData.push({
						json: {
							length: streamed ?? bufferLength,
							bufferLength,
							streamed: streamed !== null,
							fileName: binary.fileName ?? null,
							mimeType: binary.mimeType,
						},
						binary: items[i].binary,
						pairedItem: { item: i },
					});
				} else if (operation === 'failItem') {
					const name = this.getNodeParameter('name', i) as string;
					if (name === this.getNodeParameter('failOn', i)) {
						throw new NodeOperationError(this.getNode(), `Cannot process ${name}`, {
							itemIndex: i,
							description: 'The item is not acceptable',
						});
					}
					returnData.push({ json: { ok: name }, pairedItem: { item: i } });
				}
			} catch (error) {
				if (this.continueOnFail()) {
					returnData.push({
						json: { error: (error as Error).message },
						pairedItem: { item: i },
					});
					continue;
				}
				if (error instanceof NodeOperationError || error instanceof NodeApiError) throw error;
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
			}
		}
		return [returnData];
	}
}

const probe = new HarnessProbe();
const basicAuth = `Basic ${Buffer.from('key-123:secret-456').toString('base64')}`;

// ---------------------------------------------------------------------------------------------

describe('runNode', () => {
	it('resolves an expression per item and authenticates real HTTP calls (generic basic auth)', async () => {
		const result = await runNode({
			nodeType: probe,
			credentialTypes,
			credentials: basicCredentials,
			parameters: { operation: 'echo', name: '={{ $json.name }}', url: baseUrl },
			items: [{ json: { name: 'Ada' } }, { json: { name: 'Grace' } }],
		});

		expect(result.error).toBeUndefined();
		expect(result.run.status).toBe('success');
		expect(result.run.finished).toBe(true);
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.json.name)).toEqual(['Ada', 'Grace']);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(result.outputs).toEqual([result.items]);
		for (const item of result.items) {
			const response = item.json.response as IDataObject;
			expect(response.authorization).toBe(basicAuth);
			expect(response.realm).toBe('harness-realm'); // credential default applied
			expect(item.json.typeVersion).toBe(2); // defaultVersion
		}
		expect(seen.map((r) => [r.method, r.path, r.query.name])).toEqual([
			['GET', '/echo', 'Ada'],
			['GET', '/echo', 'Grace'],
		]);
	});

	it('merges generic headers and qs, and supports authenticate as a function', async () => {
		const header = await runNode({
			nodeType: probe,
			credentialTypes,
			credentials: { testHeaderApi: { apiKey: 'acme-777' } },
			parameters: { operation: 'echo', url: baseUrl, credentialType: 'testHeaderApi', name: 'x' },
		});
		expect(header.error).toBeUndefined();
		const headerResponse = header.items[0].json.response as IDataObject;
		expect(headerResponse.apiKeyHeader).toBe('acme-777');
		expect(headerResponse.authorization).toBeNull();
		expect(headerResponse.query).toEqual({ name: 'x', tenant: 'acme', fixed: 'yes' });

		const fn = await runNode({
			nodeType: probe,
			credentialTypes,
			credentials: { testFunctionApi: { secret: 's3cr3t' } },
			parameters: { operation: 'echo', url: baseUrl, credentialType: 'testFunctionApi' },
			typeVersion: 1,
		});
		expect(fn.error).toBeUndefined();
		expect((fn.items[0].json.response as IDataObject).signature).toBe('sig:s3cr3t');
		expect(fn.items[0].json.typeVersion).toBe(1);
	});

	it('fails like n8n when the node has no credentials set', async () => {
		const result = await runNode({
			nodeType: probe,
			credentialTypes,
			parameters: { operation: 'echo', url: baseUrl },
		});
		expect(result.items).toEqual([]);
		expect(result.error?.message).toMatch(/credentials/i);
		expect(seen).toHaveLength(0);
	});

	it('turns an HTTP error into a NodeApiError with its httpCode', async () => {
		const result = await runNode({
			nodeType: probe,
			credentialTypes,
			credentials: basicCredentials,
			parameters: { operation: 'echo', url: baseUrl, path: '/unauthorized' },
		});
		expect(result.run.status).toBe('error');
		expect(result.error).toBeDefined();
		expect(result.error?.name).toBe('NodeApiError');
		expect((result.error as NodeApiError).httpCode).toBe('401');
		expect(result.error?.message).toMatch(/Authorization failed|401/);
	});

	describe('item errors and continueOnFail', () => {
		const items = [{ json: { name: 'a' } }, { json: { name: 'bad' } }, { json: { name: 'c' } }];
		const parameters = { operation: 'failItem', name: '={{ $json.name }}', failOn: 'bad' };

		it('stops the workflow with the node error when continueOnFail is off', async () => {
			const result = await runNode({ nodeType: probe, parameters, items });
			expect(result.run.status).toBe('error');
			expect(result.items).toEqual([]);
			expect(result.error?.message).toBe('Cannot process bad');
			expect(result.error?.description).toBe('The item is not acceptable');
			expect(result.error?.context?.itemIndex).toBe(1);
			expect(result.run.data.resultData.error?.message).toBe('Cannot process bad');
		});

		it('returns an error item in place when continueOnFail is on', async () => {
			const result = await runNode({ nodeType: probe, parameters, items, continueOnFail: true });
			expect(result.error).toBeUndefined();
			expect(result.run.status).toBe('success');
			expect(result.items.map((item) => item.json)).toEqual([
				{ ok: 'a' },
				{ error: 'Cannot process bad' },
				{ ok: 'c' },
			]);
			expect(result.items[1].pairedItem).toEqual({ item: 1 });
		});

		it("routes error items to the error output with onError 'continueErrorOutput'", async () => {
			const result = await runNode({
				nodeType: probe,
				parameters,
				items,
				onError: 'continueErrorOutput',
			});
			expect(result.error).toBeUndefined();
			expect(result.outputs).toHaveLength(2);
			expect(result.items.map((item) => item.json)).toEqual([{ ok: 'a' }, { ok: 'c' }]);
			expect(result.outputs[1].map((item) => item.json)).toEqual([{ error: 'Cannot process bad' }]);
		});

		it('passes the input through (n8n behaviour) when the whole node throws with continueOnFail', async () => {
			const result = await runNode({
				nodeType: probe,
				parameters: { operation: 'failNode' },
				items,
				continueOnFail: true,
			});
			expect(result.error?.message).toBe('The whole node failed');
			// As in n8n, the workflow still ends in 'error' when its last node threw.
			expect(result.run.status).toBe('error');
			expect(result.items.map((item) => item.json)).toEqual(items.map((item) => item.json));
		});
	});

	describe.each(['default', 'filesystem'] as const)('binary input in %s mode', (mode) => {
		beforeAll(async () => {
			await useBinaryDataMode(mode);
		});
		afterAll(async () => {
			await useBinaryDataMode('default');
		});

		it('stores the input the mode’s way and lets the node read it', async () => {
			expect(getBinaryDataMode()).toBe(mode);
			const content = Buffer.from('hello, binary world');
			const item = await binaryItem({ n: 1 }, 'file', content, 'hello.txt', 'text/plain');
			const stored = item.binary?.file;
			expect(stored?.fileName).toBe('hello.txt');
			expect(stored?.mimeType).toBe('text/plain');
			if (mode === 'default') {
				expect(stored?.id).toBeUndefined();
				expect(stored?.data).toBe(content.toString('base64'));
			} else {
				expect(stored?.id).toMatch(/^filesystem-v2:/);
				expect(stored?.data).toBe('filesystem-v2');
			}

			const result = await runNode({
				nodeType: probe,
				parameters: { operation: 'binaryLength', binaryPropertyName: 'file' },
				items: [item],
			});
			expect(result.error).toBeUndefined();
			expect(result.items[0].json).toEqual({
				length: content.length,
				bufferLength: content.length,
				streamed: mode === 'filesystem',
				fileName: 'hello.txt',
				mimeType: 'text/plain',
			});
			expect(result.items[0].binary?.file).toEqual(stored);
		});

		it('reports a missing binary field as an item error', async () => {
			const result = await runNode({
				nodeType: probe,
				parameters: { operation: 'binaryLength', binaryPropertyName: 'nope' },
				items: [{ json: {} }],
			});
			expect(result.error?.message).toMatch(/expects the node's input data to contain a binary/);
			expect(result.error?.context?.itemIndex).toBe(0);
		});
	});
});

describe('node methods through LoadOptionsContext', () => {
	it('calls a loadOptions method with real parameters and authenticated HTTP', async () => {
		const options = await callLoadOptions({
			nodeType: probe,
			credentialTypes,
			credentials: basicCredentials,
			methodName: 'getTemplates',
			parameters: { url: baseUrl },
			currentNodeParameters: { url: baseUrl, namePrefix: 'tpl:' },
		});
		expect(options).toEqual([
			{ name: 'tpl:welcome', value: 't1', description: basicAuth },
			{ name: 'tpl:reminder', value: 't2', description: basicAuth },
		]);
		expect(seen).toHaveLength(1);
		expect(seen[0].headers['x-realm']).toBe('harness-realm');
	});

	it('calls a listSearch method with filter and pagination token', async () => {
		const common = {
			nodeType: probe,
			credentialTypes,
			credentials: basicCredentials,
			methodName: 'searchContacts',
			parameters: { url: baseUrl },
		};
		const first = await callListSearch({ ...common, filter: 'a' });
		expect(first).toEqual({
			results: [
				{ name: 'Ada', value: 'ada' },
				{ name: 'Alan', value: 'alan' },
			],
			paginationToken: '2',
		});
		const second = await callListSearch({ ...common, filter: 'a', paginationToken: '2' });
		expect(second).toEqual({ results: [{ name: 'Grace', value: 'grace' }] });
		expect(seen.every((r) => r.headers.authorization === basicAuth)).toBe(true);
	});

	it('calls a resourceMapping method and drops duplicate field ids like n8n', async () => {
		const result = await callResourceMapping({
			nodeType: probe,
			methodName: 'getFields',
			parameters: { name: 'extra' },
		});
		expect(result.fields.map((field) => field.id)).toEqual(['phone', 'email', 'extra']);
	});

	it('rejects an unknown method name', async () => {
		await expect(
			callLoadOptions({ nodeType: probe, methodName: 'nope', parameters: {} }),
		).rejects.toThrow(/methods\.loadOptions\.nope/);
	});
});
