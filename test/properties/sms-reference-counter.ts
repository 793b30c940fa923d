/**
 * A reference SMS part counter, written from the standards and nothing else, to check the node's
 * counter against: 3GPP TS 23.038 section 6.2.1 (the GSM 7-bit default alphabet and its extension
 * table, by code point, not copied from the node) and 3GPP TS 23.040 section 9.2.3.24.1
 * (concatenated messages: a 6-octet user data header leaves 153 septets or 134 octets = 67 UCS-2
 * units per part). It encodes the text unit by unit and fills parts as a sender does: a unit that
 * belongs to a pair (escape + extension character, high + low surrogate) goes into a part only
 * together with its partner. Deliberately simple rather than fast.
 */

/** TS 23.038 table 6.2.1, positions 0x00-0x7F; 0x1B (escape to the extension table) is not a character. */
const DEFAULT_ALPHABET: Array<number | undefined> = [
	0x40,
	0xa3,
	0x24,
	0xa5,
	0xe8,
	0xe9,
	0xf9,
	0xec,
	0xf2,
	0xc7,
	0x0a,
	0xd8,
	0xf8,
	0x0d,
	0xc5,
	0xe5,
	0x394,
	0x5f,
	0x3a6,
	0x393,
	0x39b,
	0x3a9,
	0x3a0,
	0x3a8,
	0x3a3,
	0x398,
	0x39e,
	undefined,
	0xc6,
	0xe6,
	0xdf,
	0xc9,
	0x20,
	0x21,
	0x22,
	0x23,
	0xa4,
	0x25,
	0x26,
	0x27,
	0x28,
	0x29,
	0x2a,
	0x2b,
	0x2c,
	0x2d,
	0x2e,
	0x2f,
	0x30,
	0x31,
	0x32,
	0x33,
	0x34,
	0x35,
	0x36,
	0x37,
	0x38,
	0x39,
	0x3a,
	0x3b,
	0x3c,
	0x3d,
	0x3e,
	0x3f,
	0xa1,
	0x41,
	0x42,
	0x43,
	0x44,
	0x45,
	0x46,
	0x47,
	0x48,
	0x49,
	0x4a,
	0x4b,
	0x4c,
	0x4d,
	0x4e,
	0x4f,
	0x50,
	0x51,
	0x52,
	0x53,
	0x54,
	0x55,
	0x56,
	0x57,
	0x58,
	0x59,
	0x5a,
	0xc4,
	0xd6,
	0xd1,
	0xdc,
	0xa7,
	0xbf,
	0x61,
	0x62,
	0x63,
	0x64,
	0x65,
	0x66,
	0x67,
	0x68,
	0x69,
	0x6a,
	0x6b,
	0x6c,
	0x6d,
	0x6e,
	0x6f,
	0x70,
	0x71,
	0x72,
	0x73,
	0x74,
	0x75,
	0x76,
	0x77,
	0x78,
	0x79,
	0x7a,
	0xe4,
	0xf6,
	0xf1,
	0xfc,
	0xe0,
];

/** TS 23.038 table 6.2.1.1: extension table position -> code point (form feed, ^ { } \ [ ~ ] | €). */
const EXTENSION_TABLE = new Map<number, number>([
	[0x0a, 0x0c],
	[0x14, 0x5e],
	[0x28, 0x7b],
	[0x29, 0x7d],
	[0x2f, 0x5c],
	[0x3c, 0x5b],
	[0x3d, 0x7e],
	[0x3e, 0x5d],
	[0x40, 0x7c],
	[0x65, 0x20ac],
]);

const ESCAPE = 0x1b;

/** The tables read the other way (code point -> position), built once from them. */
const BASIC_POSITION = new Map<number, number>();
DEFAULT_ALPHABET.forEach((codePoint, position) => {
	if (codePoint !== undefined) BASIC_POSITION.set(codePoint, position);
});
const EXTENSION_POSITION = new Map<number, number>();
for (const [position, codePoint] of EXTENSION_TABLE) EXTENSION_POSITION.set(codePoint, position);

/**
 * Encoded units, and for each whether it is the first of a pair that must not be cut from the next
 * unit (parallel lists rather than an object per unit: this runs on tens of millions of units).
 */
interface Units {
	values: number[];
	joined: boolean[];
}

/** The text as GSM 7-bit septets, or undefined when one of its characters is not in the alphabet. */
function encodeGsm7(text: string): Units | undefined {
	const units: Units = { values: [], joined: [] };
	for (let index = 0; index < text.length;) {
		const codePoint = text.codePointAt(index) as number;
		index += codePoint > 0xffff ? 2 : 1;
		const basic = BASIC_POSITION.get(codePoint);
		if (basic !== undefined) {
			units.values.push(basic);
			units.joined.push(false);
			continue;
		}
		const extension = EXTENSION_POSITION.get(codePoint);
		if (extension === undefined) return undefined;
		units.values.push(ESCAPE, extension);
		units.joined.push(true, false);
	}
	return units;
}

/** The text as UCS-2 code units; a surrogate pair (a character beyond U+FFFF) stays together. */
function encodeUcs2(text: string): Units {
	const units: Units = { values: [], joined: [] };
	for (let index = 0; index < text.length; index++) {
		const unit = text.charCodeAt(index);
		const next = index + 1 < text.length ? text.charCodeAt(index + 1) : -1;
		const high = unit >= 0xd800 && unit <= 0xdbff;
		const lowNext = next >= 0xdc00 && next <= 0xdfff;
		units.values.push(unit);
		units.joined.push(high && lowNext);
	}
	return units;
}

/** A part being filled: its units, and whether its last unit waits for a partner. */
interface Part {
	values: number[];
	endsInsidePair: boolean;
}

/** Fills parts of `room` units in order; a pair that does not fit whole starts the next part. */
function fillParts(units: Units, room: number): Part[] {
	const parts: Part[] = [{ values: [], endsInsidePair: false }];
	let part = parts[0];
	for (let index = 0; index < units.values.length; index++) {
		const size = units.joined[index] ? 2 : 1;
		if (part.values.length + size > room) {
			part = { values: [], endsInsidePair: false };
			parts.push(part);
		}
		part.values.push(units.values[index]);
		part.endsInsidePair = units.joined[index];
		if (size === 2) {
			part.values.push(units.values[++index]);
			part.endsInsidePair = units.joined[index];
		}
	}
	return parts;
}

export interface ReferenceCount {
	encoding: 'GSM-7' | 'UCS-2';
	/** Septets (GSM-7) or 16-bit units (UCS-2). */
	length: number;
	parts: number;
}

export function referenceSmsParts(text: string): ReferenceCount {
	const gsm = encodeGsm7(text);
	const encoding = gsm ? 'GSM-7' : 'UCS-2';
	const units = gsm ?? encodeUcs2(text);
	const [single, concatenated] = gsm ? [160, 153] : [70, 67];
	const length = units.values.length;
	if (length === 0) return { encoding, length: 0, parts: 0 };
	if (length <= single) return { encoding, length, parts: 1 };
	const parts = fillParts(units, concatenated);
	// Every part holds at most its room, and no pair was cut: checked here, so a wrong fill shows.
	for (const part of parts) {
		if (part.values.length > concatenated || part.values.length === 0 || part.endsInsidePair) {
			throw new Error('reference counter: a part was overfilled or a pair was cut');
		}
	}
	return { encoding, length, parts: parts.length };
}
