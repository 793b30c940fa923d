import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';
import { CONTACTS, TEMPLATES } from '../sandbox';
import { binaryItem } from '../harness';
import {
	jsonItems,
	senderLocator,
	smsSendParameters,
	templateLocator,
	changingRequests,
	useNodeEnv,
	mediaUploadParameters,
} from './support';

/**
 * Without Continue On Fail, every operation that sends or changes something checks every item
 * before its first such request: a bad item in the middle leaves nothing half done, and the stop
 * summary says every item is "not sent, safe to run again".
 */
const env = useNodeEnv();

const pdf = Buffer.from('%PDF-1.4\n' + 'catalogue '.repeat(200));

const threeFiles = async (): Promise<INodeExecutionData[]> => [
	await binaryItem({}, 'data', pdf, 'a.pdf', 'application/pdf'),
	await binaryItem({}, 'data', Buffer.from('not an image'), 'b.exe', 'application/x-msdownload'),
	await binaryItem({}, 'data', pdf, 'c.pdf', 'application/pdf'),
];

const cases: Array<{
	name: string;
	parameters: INodeParameters;
	items: () => Promise<INodeExecutionData[]> | INodeExecutionData[];
}> = [
	{
		name: 'Message > Send Template, a phone of "12"',
		parameters: {
			resource: 'message',
			operation: 'sendTemplate',
			senderNumber: senderLocator,
			template: templateLocator(TEMPLATES.flow.id),
			destination: '={{ $json.phone }}',
			variablesMode: 'define',
		},
		items: () => jsonItems({ phone: '+254700300001' }, { phone: '12' }, { phone: '+254700300003' }),
	},
	{
		name: 'Message > Send SMS, a phone of "12"',
		parameters: smsSendParameters(),
		items: () => jsonItems({ phone: '+254700300001' }, { phone: '12' }, { phone: '+254700300003' }),
	},
	{
		name: 'Media > Upload, a file type WhatsApp does not take',
		parameters: mediaUploadParameters(),
		items: threeFiles,
	},
	{
		name: 'Contact > Create, a phone of "12"',
		parameters: { resource: 'contact', operation: 'create', phoneNumber: '={{ $json.phone }}' },
		items: () => jsonItems({ phone: '+254722300001' }, { phone: '12' }, { phone: '+254722300003' }),
	},
	{
		name: 'Contact > Delete, a contact id of "abc"',
		parameters: { resource: 'contact', operation: 'delete', contactId: '={{ $json.id }}' },
		items: () => jsonItems({ id: CONTACTS.amina.id }, { id: 'abc' }, { id: CONTACTS.brian.id }),
	},
];

describe.each(cases)('$name in item 2', ({ parameters, items }) => {
	it.each([1, 10])(
		'with %i item(s) at a time: nothing sent or changed, item 2 named, every item "not sent"',
		async (concurrency) => {
			const { error } = await env.run(
				{ ...parameters, requestOptions: { concurrency } },
				await items(),
			);
			expect(error?.message).toContain('item 2');
			expect(changingRequests(env)).toEqual([]);
			expect(error?.description).toContain('Sent: none.');
			expect(error?.description).toContain('items 1-3; safe to run again');
		},
	);

	it('with Continue On Fail: the other items still go ahead, item 2 is an error item', async () => {
		const { items: output, error } = await env.run(parameters, await items(), {
			continueOnFail: true,
		});
		expect(error).toBeUndefined();
		expect(output.map((item) => item.json.error === undefined)).toEqual([true, false, true]);
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
	});
});
