/**
 * The recipe of docs/opt-outs.md ("Outside campaigns"): the Code node a marketer pastes after a
 * Data table node that reads smsleopard_opt_outs, to leave opted-out people out of their own Send
 * SMS or Send Template. Its code is read from the page, run as n8n's Code node runs it, and held
 * to the campaign's own rule (Plan Batches) on generated lists and opt-out rows: same people left
 * out, whatever form the numbers are written in.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { runInNewContext } from 'vm';

import fc from 'fast-check';

import { type OptOutRow, runPlan } from './campaign-code';

const PAGE = path.join(__dirname, '..', '..', 'docs', 'opt-outs.md');

/** The page's code block under "## Outside campaigns". */
function recipeCode(): string {
	const page = readFileSync(PAGE, 'utf8');
	const section = page.slice(page.indexOf('## Outside campaigns'));
	const match = /```js\n([\s\S]*?)```/.exec(section);
	if (!match) throw new Error('docs/opt-outs.md: no js block under "## Outside campaigns"');
	return match[1];
}

type Items = Array<{ json: Record<string, unknown> }>;

/** The recipe as n8n runs it: its input the opt-out rows, the recipients by their node's name. */
function runRecipe(recipients: Items, optOuts: OptOutRow[]): Items {
	const input: Items =
		optOuts.length > 0 ? optOuts.map((json) => ({ json: { ...json } })) : [{ json: {} }];
	const $ = (name: string) => {
		if (name !== 'Recipients') throw new Error(`the recipe reads a node named ${name}`);
		return { all: () => recipients };
	};
	return runInNewContext(`(function () {\n${recipeCode()}\n})()`, {
		$,
		$input: { all: () => input, first: () => input[0] },
	}) as Items;
}

/** Whether the campaign leaves this one person out (its summary's optedOut). */
function campaignLeavesOut(phone: string, optOuts: OptOutRow[]): boolean {
	const items = runPlan({ recipients: [{ json: { phone, name: 'P' } }], optOuts });
	const summary = items.find((item) => item.json.kind === 'summary');
	return Number(summary?.json.optedOut) === 1;
}

// One person written many ways, and their neighbours: national, international, with 00, spaced.
const forms = (digits: string) => [
	`0${digits}`,
	`+254${digits}`,
	`254${digits}`,
	`00254${digits}`,
	`+254 ${digits.slice(0, 3)} ${digits.slice(3)}`,
	`0${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`,
	`+255${digits}`,
];
const person = fc.constantFrom('712345678', '712345679', '722000111');
const written = person.chain((digits) => fc.constantFrom(...forms(digits)));
const optOutRow = fc.record({
	phone: written,
	status: fc.constantFrom('opted out' as const, 'opted in' as const),
	at: fc.constantFrom('2026-11-01T10:00:00Z', '2026-11-02T10:00:00Z', '2026-11-03T10:00:00Z'),
});

describe('docs/opt-outs.md, Outside campaigns: the recipe', () => {
	it('leaves out exactly whom the campaign leaves out, numbers written any way (generated)', () => {
		fc.assert(
			fc.property(
				fc.array(written, { minLength: 1, maxLength: 6 }),
				fc.array(optOutRow, { maxLength: 5 }),
				(phones, optOuts) => {
					const recipients = phones.map((phone) => ({ json: { phone, name: 'P' } }));
					const kept = runRecipe(recipients, optOuts).map((item) => item.json.phone);
					const expected = phones.filter((phone) => !campaignLeavesOut(phone, optOuts));
					expect(kept).toEqual(expected);
				},
			),
			{ numRuns: 200 },
		);
	});

	it('a STOP from +254712345678 leaves out 0712 345 678; a later START lets them back; an empty list keeps everyone', () => {
		const list = [{ json: { phone: '0712 345 678' } }, { json: { phone: '+254722000111' } }];
		const stop: OptOutRow = { phone: '+254712345678', status: 'opted out', at: '2026-11-01' };
		const start: OptOutRow = { phone: '0712345678', status: 'opted in', at: '2026-11-02' };
		expect(runRecipe(list, [stop]).map((item) => item.json.phone)).toEqual(['+254722000111']);
		expect(runRecipe(list, [stop, start])).toHaveLength(2);
		expect(runRecipe(list, [])).toHaveLength(2);
	});
});
