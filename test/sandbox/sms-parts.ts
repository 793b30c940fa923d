// The sandbox's own part count for SMS pricing, written apart from the client's counter so the two
// check each other: GSM-7 160 / 153 per part (extension characters twice), else UCS-2 70 / 67 per
// part in UTF-16 code units. Like a network splitting a long text (3GPP TS 23.040), an escape pair
// or a surrogate pair is never cut between parts: it moves whole to the next part.
const GSM =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
	'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

/** Units of each character of the text in its encoding, and the room of one part and of many. */
function widths(text: string): { widths: number[]; single: number; multi: number } {
	const characters = [...text];
	const gsm = characters.every((c) => GSM.includes(c) || GSM_EXTENDED.includes(c));
	return gsm
		? { widths: characters.map((c) => (GSM_EXTENDED.includes(c) ? 2 : 1)), single: 160, multi: 153 }
		: { widths: characters.map((c) => c.length), single: 70, multi: 67 };
}

export function smsParts(text: string): number {
	const { widths: units, single, multi } = widths(text);
	const total = units.reduce((sum, width) => sum + width, 0);
	if (total === 0) return 0;
	if (total <= single) return 1;
	let parts = 1;
	let room = multi;
	for (const width of units) {
		if (width > room) {
			parts++;
			room = multi;
		}
		room -= width;
	}
	return parts;
}
