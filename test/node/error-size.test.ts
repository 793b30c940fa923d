// Error amplification (issue 10.16): a huge invalid input must give a short error, not one larger
// than the input. At most 20 problems are listed, then how many more; echoed input is cut short.
import { TEMPLATES } from '../sandbox';
import { jsonItems, senderLocator, templateLocator, useNodeEnv } from './support';

const env = useNodeEnv();

const MB = 1024 * 1024;
const LIMIT = 10 * 1024;

/** One component with thousands of bad field names: thousands of problems. */
function manyProblems(bytes: number): string {
	const field = JSON.stringify({ name: 'x', value: 'v' });
	const count = Math.ceil(bytes / (field.length + 1));
	return `[{"component_type":"BODY","fields":[${Array.from({ length: count }, () => field).join(',')}]}]`;
}

/** Thousands of small components, where a template has three at most. */
function manyComponents(bytes: number): string {
	const one = JSON.stringify({ component_type: 'BODY', fields: [{ name: 'x', value: 'v' }] });
	return `[${Array.from({ length: Math.ceil(bytes / (one.length + 1)) }, () => one).join(',')}]`;
}

/** A few components whose field names are each megabytes long: echoes of huge input. */
function hugeEchoes(bytes: number): string {
	const name = 'n'.repeat(Math.ceil(bytes / 4));
	const fields = [1, 2, 3, 4].map(() => ({ name, value: 'v' }));
	return JSON.stringify([{ component_type: 'BODY', fields }]);
}

const sendWithComponents = async (componentList: string, continueOnFail = false) =>
	await env.run(
		{
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: senderLocator,
			destination: '+254700200001',
			template: templateLocator(TEMPLATES.bodyOnly.id),
			variablesMode: 'json',
			componentList: '={{ $json.components }}',
		},
		jsonItems({ components: componentList }),
		{ continueOnFail },
	);

/** Everything the user gets to see of one failure: the error's text, or the error item. */
function errorSize(result: Awaited<ReturnType<typeof sendWithComponents>>): number {
	if (result.error) {
		const { message, description } = result.error as { message: string; description?: string };
		return message.length + (description?.length ?? 0);
	}
	return JSON.stringify(result.items[0].json).length;
}

describe.each([
	['1 MB of invalid fields', () => manyProblems(MB)],
	['10 MB of components', () => manyComponents(10 * MB)],
	['10 MB of field names that echo back', () => hugeEchoes(10 * MB)],
	['10 MB of text that is not JSON', () => `[${'x'.repeat(10 * MB)}`],
])('%s', (_name, makeInput) => {
	const input = makeInput();

	it('fails with an error under 10 KB, nothing sent', async () => {
		const result = await sendWithComponents(input);
		expect(result.error?.message).toMatch(/^Invalid input in item 1: "Components \(JSON\)/);
		expect(errorSize(result)).toBeLessThan(LIMIT);
		expect(env.sends()).toHaveLength(0);
	});

	it('with Continue On Fail, the error item is under 10 KB too', async () => {
		const result = await sendWithComponents(input, true);
		expect(result.items[0].json.errorKind).toBe('validation');
		expect(errorSize(result)).toBeLessThan(LIMIT);
	});
});

it('lists the first 20 problems and says how many more there are', async () => {
	const result = await sendWithComponents(manyProblems(MB));
	const message = result.error?.message ?? '';
	expect(message.match(/"Components \(JSON\)/g)).toHaveLength(20);
	expect(message).toMatch(/; and \d{4,} more problems$/);
});

it('quotes at most 100 characters of a value, and says how long it was', async () => {
	const result = await sendWithComponents(hugeEchoes(MB));
	const message = result.error?.message ?? '';
	expect(message).toContain(
		`"${'n'.repeat(100)}… (262144 characters)" is not a placeholder number`,
	);
	expect(message).not.toContain('n'.repeat(101));
});
