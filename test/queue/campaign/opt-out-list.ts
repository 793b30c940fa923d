/**
 * The opt-out list (smsleopard_opt_outs, the contract shared with the opt-out workflow of issue 54)
 * as the tests write it: through n8n's REST data-table API, as the editor or that workflow would.
 */
import type { N8nRest } from '../../e2e/harness';
import { OPT_OUT_TABLE, findDataTable } from './campaign-kit';

export { OPT_OUT_TABLE };
/** All text: phone (normal form), status (`opted out` or `opted in`), word, at (ISO), source. */
export const OPT_OUT_COLUMNS = ['phone', 'status', 'word', 'at', 'source'].map((name) => ({
	name,
	type: 'string',
}));

export interface OptOutRow {
	id?: number;
	phone: string;
	status: 'opted out' | 'opted in';
	word: string;
	at: string;
	source: string;
}

export class OptOutList {
	constructor(
		private readonly rest: N8nRest,
		private readonly projectId: string,
		readonly id: string,
	) {}

	private path(tail: string) {
		return `/rest/projects/${this.projectId}/data-tables/${this.id}/${tail}`;
	}

	/** Deletes the whole list, as Overview > Data tables > Delete does. */
	async remove(): Promise<void> {
		await this.rest.call('DELETE', `/rest/projects/${this.projectId}/data-tables/${this.id}`);
	}

	/** Records one number's state as the opt-out workflow does: one row per number. */
	async record(phone: string, status: OptOutRow['status']): Promise<void> {
		const row = {
			phone,
			status,
			word: status === 'opted out' ? 'STOP' : 'START',
			at: new Date().toISOString(),
			source: 'test',
		};
		const filter = {
			type: 'and',
			filters: [{ columnName: 'phone', condition: 'eq', value: phone }],
		};
		const page = await this.rest.call<{ data: OptOutRow[] }>(
			'GET',
			this.path(`rows?take=1&filter=${encodeURIComponent(JSON.stringify(filter))}`),
		);
		if (page.data.length > 0)
			await this.rest.call('PATCH', this.path('rows'), { filter, data: row });
		else await this.rest.call('POST', this.path('insert'), { data: [row], returnType: 'all' });
	}
}

/** The owner's opt-out list: the one a campaign or the opt-out workflow created, or a new one. */
export async function optOutList(rest: N8nRest): Promise<OptOutList> {
	const { projectId, id } = await findDataTable(rest, OPT_OUT_TABLE);
	if (id !== undefined) return new OptOutList(rest, projectId, id);
	const made = await rest.call<{ id: string }>('POST', `/rest/projects/${projectId}/data-tables`, {
		name: OPT_OUT_TABLE,
		columns: OPT_OUT_COLUMNS,
	});
	return new OptOutList(rest, projectId, made.id);
}
