/** Group > Get Many: the sub-account's groups, following every page (Return All) or up to a limit. */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SmsLeopardValidationError } from '../../client';
import { readNumber } from '../../helpers/number-option';
import { toJson } from '../../helpers/output';
import type { ExecutionState } from '../../helpers/execution-state';
import { showOnlyFor } from '../display-options';

const show = { resource: ['group'], operation: ['getAll'] };

export const description: INodeProperties[] = showOnlyFor(show, [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
]);

const PAGE_SIZE = 100;

/** Limit from an expression: a whole number of 1 or more (digits as text too), else refused. */
function readLimit(value: unknown): number {
	const reading = readNumber(value, 50, { min: 1, whole: true });
	if (!reading.ok) {
		throw new SmsLeopardValidationError([{ field: 'limit', message: reading.problem }]);
	}
	return reading.value;
}

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	state: ExecutionState,
): Promise<IDataObject[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
	const limit = returnAll ? undefined : readLimit(this.getNodeParameter('limit', itemIndex, 50));
	const groups = await state.client.getAllGroups({ per: PAGE_SIZE, limit });
	return groups.map(toJson);
}
