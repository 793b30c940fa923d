/**
 * The client names fields by its own input (`variables.body[1].value`); users know the node's field
 * labels ("Body Variables", "Recipient"). This maps one to the other for error messages.
 */
import { parseButtonName } from '../client/whatsapp/button-names';

const LABELS: Array<[RegExp, (match: RegExpExecArray) => string]> = [
	[/^destination$/, () => 'Recipient'],
	[/^phoneNumberId$/, () => 'Sender Number'],
	[/^templateId$/, () => 'Template'],
	[/^mediaId$/, () => 'Header Media'],
	[/^templateFields$/, () => 'Values to Send'],
	[/^(body|header) (\{\{\d+\}\})$/, (m) => `${m[1] === 'body' ? 'Body' : 'Header'} ${m[2]}`],
	[/^header$/, () => 'Header Variables'],
	[/^button (\S+)(?: "(.*)")?$/, (m) => buttonLabel(m[1], m[2])],
	[/^fileName$/, () => 'File Name'],
	[/^documentFileName$/, () => 'Values to Send > Document file name'],
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

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth'];

/** "the first", "the 12th": a button's place as the marketer counts, from the API's 0-based index. */
function ordinal(index: number): string {
	if (index < ORDINALS.length) return ORDINALS[index];
	const n = index + 1;
	const teen = n % 100 >= 11 && n % 100 <= 13;
	return `${n}${teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/**
 * A button in words, never the API's name for it: `quick_reply:0` with its text "Stop" is 'the
 * first button ("Stop")', `1` is 'the button with {{1}} in its link'.
 */
function buttonLabel(name: string, text: string | undefined): string {
	const parsed = parseButtonName(name);
	const shown = text ? ` ("${text}")` : '';
	if (!parsed) return `the button named "${name}"${shown}`;
	if (parsed.form === 'placeholder') return `the button with {{${parsed.placeholder}}}${shown}`;
	const kind = { quick_reply: ' (a quick reply)', url: ' (a link)', button: '' }[parsed.type];
	return `the ${ordinal(parsed.index)} button${shown || kind}`;
}

/** Whether a label reads as words in a sentence ("the first button") rather than a field's name. */
export function labelIsWords(label: string): boolean {
	return label.startsWith('the ');
}

export function fieldLabel(field: string): string {
	for (const [pattern, label] of LABELS) {
		const match = pattern.exec(field);
		if (match) return label(match);
	}
	return field;
}
