// The credentials helper n8n-core calls through `additionalData.credentialsHelper`.
//
// Storage is an in-memory map of decrypted test credentials (no database, no encryption), but
// everything between that map and the HTTP request behaves like n8n's CLI CredentialsHelper
// (packages/cli/src/credentials-helper.ts): credential-type defaults are applied and
// expressions in credential values resolved by getDecrypted, `authenticate` supports both a
// function and the declarative `{ type: 'generic' }` form (resolving `={{$credentials.x}}`
// with the workflow's own expression engine), and `preAuthentication` runs for credential
// types that have an expirable hidden property.
import { Credentials, getAdditionalKeys } from 'n8n-core';
import {
	ICredentialsHelper,
	isExpression,
	NodeHelpers,
	UnexpectedError,
	Workflow,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowDataProxyAdditionalKeys,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import type { HarnessCredentialTypes } from './registries';
import { HarnessNodeTypes } from './registries';

const MOCK_NODE: INode = {
	id: 'harness-credentials-node',
	name: '',
	type: 'mock',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	private readonly credentialsByType: Record<string, ICredentialDataDecryptedObject>;

	constructor(
		private readonly credentialTypes: HarnessCredentialTypes,
		credentials: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		// Copy so a test's fixture object is never mutated by preAuthentication & co.
		this.credentialsByType = structuredClone(credentials);
	}

	/** Current stored (raw) data of a credential, e.g. after preAuthentication refreshed it. */
	getStored(type: string): ICredentialDataDecryptedObject | undefined {
		return this.credentialsByType[type];
	}

	getParentTypes(name: string): string[] {
		return this.credentialTypes.getParentTypes(name);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialTypes.getProperties(type);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string) {
		const credentials = new Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		credentials.setData(this.getRaw(nodeCredentials, type));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const original = structuredClone(this.getRaw(nodeCredentials, type));
		if (raw === true) return original;

		// Defaults of the credential type's properties, as the CLI's applyDefaultsAndOverwrites.
		let decrypted = NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) decrypted.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { secretsEnabled: false });
		if (expressionResolveValues) {
			try {
				decrypted = expressionResolveValues.workflow.expression.getParameterValue(
					decrypted as INodeParameters,
					expressionResolveValues.runExecutionData,
					expressionResolveValues.runIndex,
					expressionResolveValues.itemIndex,
					expressionResolveValues.node.name,
					expressionResolveValues.connectionInputData,
					mode,
					additionalKeys,
					executeData,
					false,
					decrypted,
				) as ICredentialDataDecryptedObject;
			} catch (error) {
				if (error instanceof Error) error.message += ' [Error resolving credentials]';
				throw error;
			}
		} else {
			const workflow = this.mockWorkflow();
			decrypted = workflow.expression.getComplexParameterValue(
				MOCK_NODE,
				decrypted as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decrypted,
			) as ICredentialDataDecryptedObject;
		}
		return decrypted;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const { authenticate } = credentialType;

		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}

		if (typeof authenticate === 'object' && authenticate.type === 'generic') {
			const expressionWorkflow = workflow ?? this.mockWorkflow();
			const expressionNode = node ?? MOCK_NODE;
			const additionalKeys = { $credentials: credentials } as IWorkflowDataProxyAdditionalKeys;
			const resolve = (value: unknown): unknown => {
				if (typeof value !== 'string' || !isExpression(value)) return value;
				const resolved = expressionWorkflow.expression.getSimpleParameterValue(
					expressionNode,
					value,
					'internal',
					additionalKeys,
					undefined,
					'',
				);
				return resolved ? resolved.toString() : '';
			};

			if (requestOptions.headers === undefined) requestOptions.headers = {};
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const keyResolved = String(resolve(key));
					if (!target[outerKey]) target[outerKey] = {};
					target[outerKey][keyResolved] = resolve(value);
				}
			}
		}

		return requestOptions as IHttpRequestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.credentialTypes.getByName(typeName);
		const expirableProperty = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirableProperty?.name === undefined) return undefined;
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		if (credentials[expirableProperty.name] !== '' && !credentialsExpired) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output[expirableProperty.name] === undefined) return undefined;

		const nodeCredentials = node.credentials?.[credentialType.name];
		if (nodeCredentials) {
			await this.updateCredentials(nodeCredentials, credentialType.name, {
				...this.getRaw(nodeCredentials, credentialType.name),
				...(output as ICredentialDataDecryptedObject),
			});
		}
		return Object.assign(credentials, output);
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.credentialsByType[type] = structuredClone(data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.credentialsByType[type] = {
			...this.credentialsByType[type],
			oauthTokenData: data.oauthTokenData,
		};
	}

	private getRaw(nodeCredentials: INodeCredentialsDetails, type: string) {
		const data = this.credentialsByType[type];
		if (data === undefined) {
			throw new UnexpectedError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		return data;
	}

	private mockWorkflow() {
		return new Workflow({
			nodes: [{ ...MOCK_NODE }],
			connections: {},
			active: false,
			nodeTypes: new HarnessNodeTypes([]),
		});
	}
}
