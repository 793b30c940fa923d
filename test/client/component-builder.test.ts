import {
	SmsLeopardValidationError,
	buildComponentList,
	canonicalButtonName,
	normalizeComponentList,
	parseButtonName,
} from '../../nodes/SmsLeopard/client';

function validationError(run: () => unknown): SmsLeopardValidationError {
	try {
		run();
	} catch (error) {
		if (error instanceof SmsLeopardValidationError) return error;
		throw error;
	}
	throw new Error('expected a validation error');
}

describe('button names (template send rule 4)', () => {
	it.each([
		['button:0', 'button:0'],
		['button_0', 'button:0'],
		['button-3', 'button:3'],
		['url:1', 'url:1'],
		['url_2', 'url:2'],
		['url-2', 'url:2'],
		['quick_reply:1', 'quick_reply:1'],
		['quick-reply:1', 'quick_reply:1'],
		['quick_reply_1', 'quick_reply:1'],
		['quick-reply-0', 'quick_reply:0'],
		['QUICK_REPLY:2', 'quick_reply:2'],
		['1', '1'],
		[' 2 ', '2'],
	])('reads %s as %s', (variant, canonical) => {
		expect(canonicalButtonName(variant)).toBe(canonical);
	});

	it.each([
		'',
		'button',
		'button:',
		'button:x',
		'url:-1',
		'quickreply:1',
		'quick reply:1',
		'0',
		'phone:0',
		'url:1:2',
		'url::1',
		'button:0\r\nX: y',
	])('refuses the malformed name %j', (name) => {
		expect(parseButtonName(name)).toBeUndefined();
	});
});

describe('buildComponentList', () => {
	it('turns header, body and button values into canonical component_list fields', () => {
		const list = buildComponentList({
			header: [{ placeholder: 1, value: 'Ann' }],
			body: [
				{ placeholder: 2, value: 'A-17' },
				{ placeholder: 1, value: 'Ann' },
			],
			buttons: [
				{ kind: 'url', index: 1, value: 'A-17' },
				{ kind: 'quickReply', index: 0, value: 'stop-promos' },
				{ kind: 'button', index: 2, value: 'x' },
				{ kind: 'placeholder', placeholder: 1, value: '123456' },
			],
		});
		expect(list).toEqual({
			components: [
				{ component_type: 'HEADER', fields: [{ name: '1', value: 'Ann' }] },
				{
					component_type: 'BODY',
					fields: [
						{ name: '1', value: 'Ann' },
						{ name: '2', value: 'A-17' },
					],
				},
				{
					component_type: 'BUTTONS',
					fields: [
						{ name: 'url:1', value: 'A-17' },
						{ name: 'quick_reply:0', value: 'stop-promos' },
						{ name: 'button:2', value: 'x' },
						{ name: '1', value: '123456' },
					],
				},
			],
		});
	});

	it('leaves out components without values (a template with no variables)', () => {
		expect(buildComponentList({})).toEqual({ components: [] });
	});

	it('names the field of a duplicate placeholder', () => {
		const error = validationError(() =>
			buildComponentList({
				body: [
					{ placeholder: 1, value: 'a' },
					{ placeholder: 1, value: 'b' },
				],
			}),
		);
		expect(error.field).toBe('variables.body[1]');
		expect(error.message).toContain('placeholder {{1}} is given twice');
	});

	it('refuses placeholder 0, a negative button index and an empty value, naming each field', () => {
		const error = validationError(() =>
			buildComponentList({
				body: [{ placeholder: 0, value: 'a' }],
				buttons: [{ kind: 'url', index: -1, value: '' }],
			}),
		);
		const fields = error.issues.map((issue) => issue.field);
		expect(fields).toEqual(
			expect.arrayContaining([
				'variables.body[0].placeholder',
				'variables.buttons[0].index',
				'variables.buttons[0].value',
			]),
		);
	});

	it('refuses two values for the same button', () => {
		const error = validationError(() =>
			buildComponentList({
				buttons: [
					{ kind: 'url', index: 0, value: 'a' },
					{ kind: 'button', index: 0, value: 'b' },
				],
			}),
		);
		expect(error.message).toContain('button 0 is given twice');
	});
});

describe('normalizeComponentList (JSON mode)', () => {
	it('keeps the error of a huge invalid list short: 20 problems, how many more, values cut', () => {
		const fields = Array.from({ length: 50_000 }, (_, i) => ({ name: `x${i}`, value: 'v' }));
		fields[0].name = 'y'.repeat(1_000_000);
		const error = validationError(() =>
			normalizeComponentList(JSON.stringify([{ component_type: 'BODY', fields }])),
		);
		expect(error.issues).toHaveLength(20);
		expect(error.moreIssues).toBe(49_980);
		expect(error.message).toMatch(/; and 49980 more problems$/);
		expect(error.message).toContain(`"${'y'.repeat(100)}… (1000000 characters)"`);
		expect(error.message.length).toBeLessThan(10_000);
	});

	it('refuses more than three components before checking each one', () => {
		const one = { component_type: 'BODY', fields: [{ name: '1', value: 'v' }] };
		const error = validationError(() => normalizeComponentList(Array(100_000).fill(one)));
		expect(error.issues).toEqual([
			{
				field: 'componentList.components',
				message:
					'has 100000 components: give at most one HEADER, one BODY and one BUTTONS component',
			},
		]);
	});

	it('accepts JSON text, canonicalises button names and turns numbers into text', () => {
		const list = normalizeComponentList(
			JSON.stringify({
				components: [
					{ component_type: 'body', fields: [{ name: 1, value: 42 }] },
					{ component_type: 'BUTTONS', fields: [{ name: 'quick-reply_1', value: 'yes' }] },
				],
			}),
		);
		expect(list).toEqual({
			components: [
				{ component_type: 'BODY', fields: [{ name: '1', value: '42' }] },
				{ component_type: 'BUTTONS', fields: [{ name: 'quick_reply:1', value: 'yes' }] },
			],
		});
	});

	it('accepts a bare array of components', () => {
		expect(
			normalizeComponentList([{ component_type: 'BODY', fields: [{ name: '1', value: 'x' }] }]),
		).toEqual({ components: [{ component_type: 'BODY', fields: [{ name: '1', value: 'x' }] }] });
	});

	it('says where JSON text is broken', () => {
		const error = validationError(() => normalizeComponentList('{"components": ['));
		expect(error.field).toBe('componentList');
		expect(error.message).toMatch(/is not valid JSON/);
	});

	it('refuses a non-numeric BODY name (rule 2) and a malformed button name (rule 4)', () => {
		const error = validationError(() =>
			normalizeComponentList({
				components: [
					{ component_type: 'BODY', fields: [{ name: 'name', value: 'x' }] },
					{ component_type: 'BUTTONS', fields: [{ name: 'quick:1', value: 'y' }] },
				],
			}),
		);
		expect(error.issues).toEqual([
			{
				field: 'componentList.components[0].fields[0].name',
				message: expect.stringContaining('"name" is not a placeholder number'),
			},
			{
				field: 'componentList.components[1].fields[0].name',
				message: expect.stringContaining('"quick:1" is not a button name'),
			},
		]);
	});

	it('refuses an unknown component type', () => {
		const error = validationError(() =>
			normalizeComponentList({ components: [{ component_type: 'FOOTER', fields: [] }] }),
		);
		expect(error.field).toBe('componentList.components[0].component_type');
		expect(error.message).toContain('must be HEADER, BODY or BUTTONS');
	});

	it('refuses a component given twice', () => {
		const error = validationError(() =>
			normalizeComponentList({
				components: [
					{ component_type: 'BODY', fields: [] },
					{ component_type: 'BODY', fields: [] },
				],
			}),
		);
		expect(error.field).toBe('componentList.components[1].component_type');
		expect(error.message).toContain('BODY appears twice');
	});

	it('refuses two spellings of the same button', () => {
		const error = validationError(() =>
			normalizeComponentList({
				components: [
					{
						component_type: 'BUTTONS',
						fields: [
							{ name: 'url:0', value: 'a' },
							{ name: 'url_0', value: 'b' },
						],
					},
				],
			}),
		);
		expect(error.message).toContain('"url_0" is given twice');
	});
});
