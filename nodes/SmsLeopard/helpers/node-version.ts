import type { IExecuteFunctions } from 'n8n-workflow';

const versions = new WeakMap<object, number>();

/**
 * The node's type version, read once per run (the router's context is one per run): n8n's getNode()
 * deep-copies the whole node, parameters and all, on every call, and items read the version one by
 * one.
 */
export function nodeVersion(context: Pick<IExecuteFunctions, 'getNode'>): number {
	let version = versions.get(context);
	if (version === undefined) {
		version = context.getNode().typeVersion;
		versions.set(context, version);
	}
	return version;
}
