// In-memory node-type and credential-type registries: what n8n's LoadNodesAndCredentials
// provides in a real instance, reduced to the one node and the credential types under test.
import { readFileSync } from 'node:fs';
import path from 'node:path';

import { NodeHelpers, UnexpectedError } from 'n8n-workflow';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';

/** `name` of the package under test, used as the node-type prefix like n8n does. */
export const PACKAGE_NAME: string = (() => {
	try {
		const pkgPath = path.resolve(__dirname, '..', '..', 'package.json');
		const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { name?: string };
		return pkg.name ?? 'n8n-nodes-test';
	} catch {
		return 'n8n-nodes-test';
	}
})();

/** Full node-type name as n8n registers a community node: `<package>.<description.name>`. */
export function fullNodeTypeName(nodeType: INodeType | IVersionedNodeType): string {
	const { name } = nodeType.description;
	return name.includes('.') ? name : `${PACKAGE_NAME}.${name}`;
}

/** The version n8n gives a newly added node (defaultVersion, else the highest version). */
export function defaultTypeVersion(nodeType: INodeType | IVersionedNodeType): number {
	if ('nodeVersions' in nodeType) {
		return nodeType.description.defaultVersion ?? nodeType.currentVersion;
	}
	const { version, defaultVersion } = nodeType.description;
	if (defaultVersion !== undefined) return defaultVersion;
	return Array.isArray(version) ? Math.max(...version) : version;
}

export class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	constructor(nodeTypes: Array<INodeType | IVersionedNodeType>) {
		for (const nodeType of nodeTypes) this.types.set(fullNodeTypeName(nodeType), nodeType);
	}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const found = this.types.get(nodeType);
		if (!found) {
			throw new UnexpectedError(`Unknown node type "${nodeType}" in the test harness`);
		}
		return found;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		// Like n8n's NodeTypes: unknown types yield undefined so `new Workflow()` can skip them.
		const found = this.types.get(nodeType);
		return (found ? NodeHelpers.getVersionedNodeType(found, version) : undefined) as INodeType;
	}

	getKnownTypes(): IDataObject {
		const known: IDataObject = {};
		for (const name of this.types.keys()) known[name] = { className: name, sourcePath: '' };
		return known;
	}
}

export class HarnessCredentialTypes implements ICredentialTypes {
	private readonly types = new Map<string, ICredentialType>();

	constructor(credentialTypes: ICredentialType[]) {
		for (const credentialType of credentialTypes)
			this.types.set(credentialType.name, credentialType);
	}

	recognizes(credentialType: string): boolean {
		return this.types.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		const found = this.types.get(credentialType);
		if (!found) {
			throw new UnexpectedError(
				`Unknown credential type "${credentialType}": pass it to the harness in \`credentialTypes\``,
			);
		}
		return found;
	}

	getSupportedNodes(_type: string): string[] {
		return [];
	}

	getParentTypes(typeName: string): string[] {
		const extendsArr = this.types.get(typeName)?.extends ?? [];
		const parents = [...extendsArr];
		for (const parent of extendsArr) parents.push(...this.getParentTypes(parent));
		return parents;
	}

	/** Properties including those inherited through `extends` (parents first), like the CLI. */
	getProperties(typeName: string): INodeProperties[] {
		const credentialType = this.getByName(typeName);
		if (credentialType.extends === undefined) return credentialType.properties;
		const combined = new Map<string, INodeProperties>();
		const merge = (properties: INodeProperties[]) => {
			for (const property of properties) combined.set(property.name, property);
		};
		for (const parent of credentialType.extends) {
			if (this.recognizes(parent)) merge(this.getProperties(parent));
		}
		merge(credentialType.properties);
		return [...combined.values()];
	}
}
