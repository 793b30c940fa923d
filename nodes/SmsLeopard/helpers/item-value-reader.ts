/**
 * A parameter's value for one item read without n8n's expression engine, for a whole value such as
 * Values to Send (a resource mapper): n8n resolves an object leaf by leaf (n8n-workflow's
 * Expression.getParameterValue), so an object whose every expression is one `itemTextReader` knows
 * equals an object built the same way, with each expression replaced by the item's text and every
 * other value as saved. Reading Values to Send for each of a batch's 1,000 items through n8n was the
 * largest part of a campaign worker's own CPU.
 *
 * n8n then checks a whole value against the parameter's description only when that description
 * asks for it (`validateType`, or a collection whose options do): such a parameter is left to n8n.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { itemTextReader } from './item-field-expression';

/** The item's value, or undefined when n8n must answer (a field holds anything but text). */
export type ItemValueReader = (json: IDataObject | undefined) => unknown;

const ASK_N8N = Symbol('ask n8n');
type Plan = (json: IDataObject | undefined) => unknown;

/**
 * How to read the top-level parameter `raw` (as saved) for an item without n8n, or undefined when
 * some part of it is an expression only n8n can answer, or n8n would check it against `described`.
 */
export function itemValueReader(
	raw: unknown,
	described: INodeProperties[],
): ItemValueReader | undefined {
	if (described.some(checkedByN8n)) return undefined;
	const plan = planOf(raw);
	if (!plan) return undefined;
	return (json) => {
		const value = plan(json);
		return value === ASK_N8N ? undefined : value;
	};
}

/** n8n-core's validateValueAgainstSchema changes or refuses a whole value read of these. */
function checkedByN8n(property: INodeProperties): boolean {
	if (property.validateType) return true;
	return (
		property.type === 'collection' &&
		(property.options ?? []).some((option) => 'validateType' in option && option.validateType)
	);
}

function planOf(raw: unknown): Plan | undefined {
	if (typeof raw === 'string' && raw.startsWith('=')) {
		const read = itemTextReader(raw);
		return read && ((json) => read(json) ?? ASK_N8N);
	}
	if (raw === null || typeof raw !== 'object') return () => raw;
	const entries = Object.entries(raw as Record<string, unknown>).map(
		([key, value]) => [key, planOf(value)] as const,
	);
	if (entries.some(([, plan]) => !plan)) return undefined;
	const plans = entries as Array<readonly [string, Plan]>;
	if (Array.isArray(raw)) {
		return (json) => {
			const values = plans.map(([, plan]) => plan(json));
			return values.includes(ASK_N8N) ? ASK_N8N : values;
		};
	}
	return (json) => {
		const value: Record<string, unknown> = {};
		for (const [key, plan] of plans) {
			const inner = plan(json);
			if (inner === ASK_N8N) return ASK_N8N;
			value[key] = inner;
		}
		return value;
	};
}
