/**
 * The client names fields by its own input (`variables.body[1].value`); users know the node's field
 * labels ("Body Variables", "Recipient"). This maps one to the other for error messages.
 */
const LABELS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
	[/^destination$/, () => 'Recipient'],
	[/^phoneNumberId$/, () => 'Sender Number'],
	[/^templateId$/, () => 'Template'],
	[/^mediaId$/, () => 'Header Media'],
	[/^(body|header) (\{\{\d+\}\})$/, (m) => `${m[1] === 'body' ? 'Body' : 'Header'} ${m[2]}`],
	[/^header$/, () => 'Header Variables'],
	[/^button (\S+)$/, (m) => `Button ${m[1]}`],
	[/^fileName$/, () => 'File Name'],
	[/^componentList(.*)$/, (m) => `Components (JSON)${m[1] ? ` ${m[1]}` : ''}`],
	[
		/^variables\.header\[(\d+)\](?:\.(\w+))?$/,
		(m) => `Header Variables, entry ${Number(m[1]) + 1}${m[2] ? ` (${m[2]})` : ''}`,
	],
	[
		/^variables\.body\[(\d+)\](?:\.(\w+))?$/,
		(m) => `Body Variables, entry ${Number(m[1]) + 1}${m[2] ? ` (${m[2]})` : ''}`,
	],
	[
		/^variables\.buttons\[(\d+)\](?:\.(\w+))?$/,
		(m) => `Buttons, entry ${Number(m[1]) + 1}${m[2] ? ` (${m[2]})` : ''}`,
	],
	[/^file(\..*)?$/, () => 'Input Binary Field'],
	[/^type$/, () => 'Media Type'],
	[/^phoneNumber$/, () => 'Phone Number'],
	[/^email$/, () => 'Email'],
	[/^name$/, () => 'Name'],
	[/^groupIds(\[\d+\])?$/, () => 'Groups'],
	[
		/^customAttributes\[(\d+)\](?:\.(\w+))?$/,
		(m) => `Custom Attributes, entry ${Number(m[1]) + 1}${m[2] ? ` (${m[2]})` : ''}`,
	],
	[/^contactId$/, () => 'Contact ID'],
	[/^senderId$/, () => 'Sender Number'],
	[/^source$/, () => 'Sender ID'],
	[/^message$/, () => 'Message'],
	[/^recipients(\[\d+\]\.number)?$/, () => 'Recipient'],
	[/^recipients\[\d+\]\.message$/, () => 'Message'],
	[/^statusUrl$/, () => 'Delivery Report URL'],
	[/^statusSecret$/, () => 'Delivery Report Secret'],
	[/^maxParts$/, () => 'Max Parts per Message'],
	[/^recipientsPerRequest$/, () => 'Recipients per Request'],
	[/^pricePerPart$/, () => 'Price per Part'],
	[/^pricePerMessage$/, () => 'Price per Message'],
	[/^limit$/, () => 'Limit'],
	[/^messageId$/, () => 'Message ID'],
	// Settings the client is built with: the credential's fields and the Request Options.
	[/^chatUrl$/, () => 'Chat API URL (SMSLeopard credential)'],
	[/^contactsUrl$/, () => 'Contacts API URL (SMSLeopard credential)'],
	[/^channel$/, () => 'Channel (SMSLeopard credential)'],
	[/^timeoutMs$/, () => 'Request Options > Timeout (Seconds)'],
	[/^requestsPerSecond$/, () => 'Request Options > Max Requests per Second'],
	[/^parallelCalls$/, () => 'Request Options > Items in Parallel'],
];

export function fieldLabel(field: string): string {
	for (const [pattern, label] of LABELS) {
		const match = pattern.exec(field);
		if (match) return label(match);
	}
	return field;
}
