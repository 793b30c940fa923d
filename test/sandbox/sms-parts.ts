// The sandbox's own part count for SMS pricing, written apart from the client's counter so the two
// check each other: GSM-7 160 / 153 per part (extension characters twice), else UCS-2 70 / 67 per
// part in UTF-16 code units.
const GSM =
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
	'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM_EXTENDED = '^{}\\[~]|€\f';

export function smsParts(text: string): number {
	let septets = 0;
	for (const character of text) {
		if (GSM.includes(character)) septets += 1;
		else if (GSM_EXTENDED.includes(character)) septets += 2;
		else return text.length <= 70 ? 1 : Math.ceil(text.length / 67);
	}
	if (septets === 0) return 0;
	return septets <= 160 ? 1 : Math.ceil(septets / 153);
}
