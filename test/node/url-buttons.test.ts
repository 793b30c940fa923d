/**
 * docs/api.md "Template send rules", rule 3: a URL button takes only the value of its placeholder.
 * A whole URL pasted for it is cut to that value when it starts with the button's fixed part; any
 * other URL is refused before sending, naming the button and the item.
 */
import { SENDERS, TEMPLATES } from '../sandbox';
import { jsonItems, senderLocator, templateLocator, useNodeEnv } from './support';

const env = useNodeEnv();

const track = 'https://shop.example.com/track/';
const base = {
	resource: 'message',
	operation: 'sendTemplate',
	senderNumber: senderLocator,
	destination: '={{ $json.phone }}',
	template: templateLocator(TEMPLATES.urlButton.id),
};

const modes = {
	'Define Below': {
		...base,
		variablesMode: 'define',
		bodyVariables: { variable: [{ placeholder: 1, value: '={{ $json.parcel }}' }] },
		buttons: { button: [{ kind: 'url', index: 0, value: '={{ $json.link }}' }] },
	},
	'From the Template': {
		...base,
		variablesMode: 'template',
		templateFields: {
			mappingMode: 'defineBelow',
			value: { body_1: '={{ $json.parcel }}', button_0_url: '={{ $json.link }}' },
		},
	},
	'Using JSON': {
		...base,
		variablesMode: 'json',
		componentList:
			'={{ JSON.stringify([{ component_type: "BODY", fields: [{ name: "1", value: $json.parcel }] }, { component_type: "BUTTONS", fields: [{ name: "1", value: $json.link }] }]) }}',
	},
};

const buttonValuesSent = () =>
	env.sends().map(
		(send) =>
			(
				send.component_list as {
					components: Array<{ component_type: string; fields: Array<{ value: string }> }>;
				}
			).components.find((component) => component.component_type === 'BUTTONS')?.fields[0].value,
	);

describe.each(Object.entries(modes))('a whole URL as a URL button value (%s)', (_mode, params) => {
	it("sends only the placeholder's value when the URL starts with the button's fixed part", async () => {
		const { items, error } = await env.run(
			params,
			jsonItems({ phone: '+254700200001', parcel: 'P9', link: `${track}P9` }),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.messageId).toEqual(expect.any(String));
		expect(buttonValuesSent()).toEqual(['P9']);
	});

	it('refuses a URL that does not start with it, naming the button, the item and what to do', async () => {
		const { error } = await env.run(
			params,
			jsonItems(
				{ phone: '+254700200001', parcel: 'P8', link: 'P8' },
				{ phone: '+254700200002', parcel: 'P9', link: 'https://other.example.com/P9' },
			),
		);
		expect(error?.message).toMatch(
			/^Invalid input in item 2: the (first button \(a link\)|button with \{\{1\}\}) is a whole URL \(https:\/\/other\.example\.com\/P9\), but the button "Track" opens https:\/\/shop\.example\.com\/track\/\{\{1\}\}: give only the part that replaces \{\{1\}\} \(or a URL that starts with https:\/\/shop\.example\.com\/track\/\)$/,
		);
		// Every item is checked before the first send: item 1 did not go out either.
		expect(buttonValuesSent()).toEqual([]);
	});
});

describe('a whole URL when the template cannot be read (an account without the template listing)', () => {
	it.each(['Define Below', 'Using JSON'] as const)(
		'%s: refused before sending, since the fixed part is unknown',
		async (mode) => {
			env.sandbox.setOptions({ noTemplateListing: true });
			const { error } = await env.run(
				modes[mode],
				jsonItems({ phone: '+254700200001', parcel: 'P9', link: `${track}P9` }),
			);
			expect(error?.message).toMatch(
				/^Invalid input in item 1: the (first button \(a link\)|button with \{\{1\}\}) is a whole URL \(https:\/\/shop\.example\.com\/track\/P9\): give only the part that replaces the placeholder at the end of the button's URL \(the template could not be read, so the node cannot cut it\)$/,
			);
			expect(env.sends()).toEqual([]);
		},
	);

	it('a value that is not a URL is sent unchecked, as before', async () => {
		env.sandbox.setOptions({ noTemplateListing: true });
		const { error } = await env.run(
			modes['Define Below'],
			jsonItems({ phone: '+254700200001', parcel: 'P9', link: 'P9' }),
		);
		expect(error).toBeUndefined();
		expect(buttonValuesSent()).toEqual(['P9']);
	});
});

it('a button whose placeholder is the whole URL takes a whole URL as it is', async () => {
	const [template] = env.sandbox.state.templates[SENDERS.primary.id].filter(
		(candidate) => candidate.id === TEMPLATES.urlButton.id,
	);
	template.button = [{ ...template.button[0], url: '{{1}}' }];
	const { error } = await env.run(
		modes['Define Below'],
		jsonItems({ phone: '+254700200001', parcel: 'P9', link: 'https://any.example.org/P9' }),
	);
	expect(error).toBeUndefined();
	expect(buttonValuesSent()).toEqual(['https://any.example.org/P9']);
});
