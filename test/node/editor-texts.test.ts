/**
 * Texts the editor shows as they are written: n8n strips anything that looks like an HTML tag from
 * descriptions (the Channel tooltip once read "(/v1//send)").
 */
import type { INodeProperties } from 'n8n-workflow';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';

function texts(properties: INodeProperties[]): string[] {
	return properties.flatMap((property) => [
		property.displayName,
		property.description ?? '',
		property.hint ?? '',
		...texts(
			(property.options ?? [])
				.filter((option) => 'values' in option)
				.flatMap((option) => (option as { values: INodeProperties[] }).values),
		),
	]);
}

describe('texts shown in the editor', () => {
	it('have nothing n8n would strip as an HTML tag', () => {
		const all = [
			...texts(new SmsLeopardApi().properties),
			...texts(new SmsLeopard().description.properties),
		];
		expect(all.filter((text) => /<[a-z/][^>]*>/i.test(text))).toEqual([]);
	});

	it('the Channel tooltip shows a whole example path', () => {
		const channel = new SmsLeopardApi().properties.find((property) => property.name === 'channel');
		expect(channel?.description).toContain('/v1/whatsapp/send');
	});
});
