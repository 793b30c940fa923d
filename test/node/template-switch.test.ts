/**
 * No path from a template switch to a wrong text. After "welcome" was mapped and the template
 * switched to "order_update", n8n's Refresh Field List asks the node for the fields again and keeps
 * a value only under an id the new list has (ResourceMapper.vue's pruneParamValues, copied below):
 * welcome's values, saved by this version or by an earlier one, never fill order_update's text.
 */
import type { INodeParameters } from 'n8n-workflow';
import { TEMPLATES } from '../sandbox';
import { SAVED_SHAPES } from '../fixtures/template-fields/saved-nodes';
import { changingRequests, jsonItems, templateSendParameters, useNodeEnv } from './support';

const env = useNodeEnv();

const sendOf = (templateId: string, templateFields?: unknown): INodeParameters =>
	templateSendParameters(templateId, templateFields ? { templateFields } : {});

interface Mapped {
	value: Record<string, unknown>;
	schema: Array<{ id: string }>;
}

/** What n8n 2.8.4's Refresh Field List does: the node's fields, then values pruned to their ids. */
async function refresh(templateId: string, held: Mapped): Promise<Mapped> {
	const { fields } = await env.resourceMapping(
		'getTemplateFields',
		sendOf(templateId, { mappingMode: 'defineBelow', ...held }),
	);
	const ids = new Set(fields.map((field) => field.id));
	const value = Object.fromEntries(Object.entries(held.value).filter(([id]) => ids.has(id)));
	return { value, schema: fields };
}

/** Welcome mapped in the editor today: its fields, and a value typed into each. */
async function welcomeMapped(): Promise<Mapped> {
	const { fields } = await env.resourceMapping(
		'getTemplateFields',
		sendOf(TEMPLATES.textHeader.id),
	);
	const typed = ['Amina', 'Amina', 'Leopard Shop'];
	return {
		value: Object.fromEntries(fields.map((field, index) => [field.id, typed[index]])),
		schema: fields,
	};
}

const welcomeOfEarlierVersions = SAVED_SHAPES.slice(0, -1).map(
	(saved) => [saved.file, saved.templateFields.welcome as unknown as Mapped] as const,
);

const cases: Array<[string, () => Promise<Mapped>]> = [
	['this version', async () => await welcomeMapped()],
	...welcomeOfEarlierVersions.map(([file, mapped]): [string, () => Promise<Mapped>] => [
		`the version of ${file}`,
		async () => await Promise.resolve(mapped),
	]),
];

describe.each(cases)(
	'welcome mapped by %s, switched to order_update, Refresh, Execute',
	(_who, mapped) => {
		it("drops every welcome value, and nothing of welcome's is sent", async () => {
			const refreshed = await refresh(TEMPLATES.bodyOnly.id, await mapped());
			expect(refreshed.value).toEqual({});
			// Its required fields are empty: n8n itself will not run the node ("The workflow has issues").
			const ran = await env
				.run(
					sendOf(TEMPLATES.bodyOnly.id, { mappingMode: 'defineBelow', ...refreshed }),
					jsonItems({ phone: '+254700800001', name: 'Amina' }),
				)
				.catch((error: Error) => error);
			expect(ran).toBeInstanceOf(Error);
			expect((ran as Error).message).toContain('The workflow has issues');
			expect(changingRequests(env)).toEqual([]);
		});
	},
);

it('Execute before Refresh refuses, and what it advises (Refresh) drops the old values', async () => {
	const held = await welcomeMapped();
	const { error } = await env.run(
		sendOf(TEMPLATES.bodyOnly.id, { mappingMode: 'defineBelow', ...held }),
		jsonItems({ phone: '+254700800001', name: 'Amina' }),
	);
	expect(error?.message).toContain('were mapped for template "welcome" (tpl_welcome)');
	expect(error?.message).toContain('click Refresh Field List');
	expect(error?.message).not.toContain('retype');
	expect((await refresh(TEMPLATES.bodyOnly.id, held)).value).toEqual({});
	expect(env.sends()).toEqual([]);
});

it('Refresh with the same template keeps the values, and they send', async () => {
	const held = await welcomeMapped();
	const refreshed = await refresh(TEMPLATES.textHeader.id, held);
	expect(refreshed.value).toEqual(held.value);
	const { items, error } = await env.run(
		sendOf(TEMPLATES.textHeader.id, { mappingMode: 'defineBelow', ...refreshed }),
		jsonItems({ phone: '+254700800001' }),
	);
	expect(error).toBeUndefined();
	expect(items[0].json.bodyText).toBe('Hello Amina, thanks for joining Leopard Shop.');
});
