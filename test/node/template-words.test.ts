/**
 * The words of Send Template as the marketer reads them: one name for the values (n8n titles the
 * resource mapper "Values to Send"), one item numbering (the editor's "item 1"), and a refused
 * dry-run row that names its recipient like the rows beside it.
 */
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { TEMPLATES } from '../sandbox';
import {
	changingRequests,
	jsonItems,
	smsSendParameters,
	templateSendParameters,
	useNodeEnv,
} from './support';

const env = useNodeEnv();

const orderUpdate = templateSendParameters(TEMPLATES.bodyOnly.id);

/** order_update's Values to Send as the editor saves them, body {{1}} from the item's name. */
async function savedValues() {
	const { fields } = await env.resourceMapping('getTemplateFields', orderUpdate);
	const [first, second] = fields.map((field) => field.id);
	return {
		mappingMode: 'defineBelow',
		value: { [first]: '={{ $json.name }}', [second]: 'A-1' },
		matchingColumns: [],
		schema: fields,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
}

it('the node says "Values to Send", the name on screen, never "Template Fields"', () => {
	const words = JSON.stringify(
		new SmsLeopard().description.properties.filter((property) =>
			JSON.stringify(property.displayOptions ?? {}).includes('sendTemplate'),
		),
	);
	expect(words).toContain('"displayName":"Values to Send"');
	expect(words).not.toContain('Template Fields');
});

it('a value an item leaves empty: one message, the field in words, one item numbering', async () => {
	const templateFields = await savedValues();
	const { error } = await env.run(
		{ ...orderUpdate, templateFields },
		jsonItems({ phone: '+254700700001', name: 'Amina' }, { phone: '+254700700002' }),
	);
	expect(error?.message).toBe(
		'Invalid input in item 2: "Body {{1}}" is required by template "order_update": give a value for {{1}} of the body',
	);
	expect(`${error?.message} ${error?.description}`).not.toMatch(/\[item \d\]|_t[0-9a-f]{8}/);
	expect(changingRequests(env)).toEqual([]);
});

it('a refused dry-run row names its recipient, never leaving the column undefined', async () => {
	const templateFields = await savedValues();
	const template = await env.run(
		{ ...orderUpdate, templateFields, dryRun: true },
		jsonItems({ phone: '+254700700001', name: 'Amina' }, { phone: '+254700700002' }),
	);
	expect(template.items.map(({ json }) => [json.outcome, json.recipient])).toEqual([
		['would send', '+254700700001'],
		['would be refused', '+254700700002'],
	]);
	expect(template.items[1].json.reason).toContain('"Body {{1}}" is required');
	const sms = await env.run(
		smsSendParameters({ recipient: '={{ $json.phone }}', dryRun: true }),
		jsonItems({ phone: '+254700700001' }, { phone: '12' }),
	);
	expect(sms.items.map(({ json }) => [json.outcome, json.recipient])).toEqual([
		['would send', '+254700700001'],
		['would be refused', '12'],
	]);
	expect(changingRequests(env)).toEqual([]);
});
