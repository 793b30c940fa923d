/**
 * The node's context with parameters read once: a parameter that holds no expression has the same
 * value for every item, so it is read once per run and shared; a parameter with an expression is
 * read once per item and shared by every reader of that item. n8n's getNodeParameter builds an
 * expression context and deep-copies the value on every call, and an item reads about ten
 * parameters, some several times: for thousands of items that was most of the node's own CPU.
 *
 * The context is wrapped rather than every call site changed, so no code path can read a parameter
 * the slow way by forgetting to: everything else passes through to n8n's own context untouched.
 * Values are frozen because they are shared: an accidental change would leak into other items.
 */
import type { IExecuteFunctions, INodeParameters, INodeProperties } from 'n8n-workflow';
import { type ItemValueReader, itemValueReader } from './item-value-reader';

type GetNodeParameter = (
	name: string,
	itemIndex: number,
	fallbackValue?: unknown,
	options?: Record<string, unknown>,
) => unknown;

/** True when the raw value (as saved in the workflow) holds an n8n expression anywhere inside. */
export function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/** The raw saved value at a dotted path such as `requestOptions.timeout` (undefined if absent). */
function rawValueAt(parameters: INodeParameters, path: string): unknown {
	let value: unknown = parameters;
	for (const key of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[key];
	}
	return value;
}

function deepFreeze<T>(value: T): T {
	if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const inner of Object.values(value)) deepFreeze(inner);
	}
	return value;
}

/** The same fallback: the same value, or both a fresh `{}` (a call site's usual default). */
function sameFallback(a: unknown, b: unknown): boolean {
	return Object.is(a, b) || (isEmptyRecord(a) && isEmptyRecord(b));
}

function isEmptyRecord(value: unknown): boolean {
	return (
		value !== null &&
		typeof value === 'object' &&
		Object.getPrototypeOf(value) === Object.prototype &&
		Reflect.ownKeys(value).length === 0
	);
}

/**
 * `context` with getNodeParameter answered from a per-run memory, or from the item itself for the
 * expressions that need no engine (item-value-reader.ts); everything else is n8n's. `properties`:
 * the node's description, for the parameters n8n would check against it.
 */
export function withParametersReadOnce(
	context: IExecuteFunctions,
	properties: INodeProperties[],
): IExecuteFunctions {
	const original = context.getNodeParameter.bind(context) as GetNodeParameter;
	const parameters = context.getNode().parameters;
	const perRun = new Map<string, unknown>();
	const perItem = new Map<string, unknown>();
	const constant = new Map<string, boolean>();
	const readers = new Map<string, ItemValueReader | undefined>();
	let items: ReturnType<IExecuteFunctions['getInputData']> | undefined;
	// The key of the last question per parameter: each item asks the same ones, and reusing the
	// very string spares writing it (and hashing it for the memory's look-up) every time.
	const lastAsked = new Map<string, { fallbackValue: unknown; options: unknown; key: string }>();
	const askedKey = (name: string, fallbackValue: unknown, options: unknown) => {
		const last = lastAsked.get(name);
		if (last && sameFallback(last.fallbackValue, fallbackValue) && last.options === options) {
			return last.key;
		}
		const key = `${name}\u0000${JSON.stringify(options) ?? ''}\u0000${JSON.stringify(fallbackValue) ?? ''}`;
		lastAsked.set(name, { fallbackValue, options, key });
		return key;
	};
	const getNodeParameter: GetNodeParameter = (name, itemIndex, fallbackValue, options) => {
		let isConstant = constant.get(name);
		if (isConstant === undefined) {
			const raw = rawValueAt(parameters, name);
			isConstant = !holdsExpression(raw);
			constant.set(name, isConstant);
			// Top-level parameters only: n8n checks a collection's values against its description.
			const described = properties.filter((property) => property.name === name);
			const top = !name.includes('.') && !isConstant;
			readers.set(name, top ? itemValueReader(raw, described) : undefined);
		}
		const reader = options === undefined ? readers.get(name) : undefined;
		if (reader) {
			items ??= context.getInputData();
			const value = reader(items[itemIndex]?.json);
			if (value !== undefined) return deepFreeze(value);
		}
		const asked = askedKey(name, fallbackValue, options);
		const key = isConstant ? asked : `${asked}\u0000${itemIndex}`;
		const memory = isConstant ? perRun : perItem;
		if (memory.has(key)) return memory.get(key);
		// A constant is read at the item asked for, like any other: the value is the same for all.
		const value = deepFreeze(original(name, itemIndex, fallbackValue, options));
		memory.set(key, value);
		return value;
	};
	const bound = new Map<PropertyKey, unknown>();
	return new Proxy(context, {
		get(target, property) {
			if (property === 'getNodeParameter') return getNodeParameter;
			const value: unknown = Reflect.get(target, property, target);
			if (typeof value !== 'function') return value;
			// n8n's methods expect their own context as `this`; bound once, not on every access.
			let method = bound.get(property);
			if (!method) {
				method = (value as (...args: unknown[]) => unknown).bind(target);
				bound.set(property, method);
			}
			return method;
		},
	});
}
