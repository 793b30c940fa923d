/**
 * Which entry of a send answer belongs to which asked recipient. A message id goes to an item only
 * from the entry that is provably its own, because a wrong pairing hands one customer another's
 * message id (and its delivery reports), and an item left without an entry is reported "maybe
 * sent", never "safe to run again". An entry is an item's own when exactly one entry has the
 * item's number (spelled any way, local numbers read as Kenyan) and that entry matches no other item
 * of the request, even in another country (0712345678 could be +256712345678 for an account outside
 * Kenya). The order of the answer is not trusted: entries that could be either of two items could
 * have been listed in any order, so they pair with neither. Only a lone recipient answered by a lone entry without a number is paired by
 * position.
 */

/** One recipient entry of a send answer, read without trusting its types. */
export interface RecipientEntry {
	/** The message id; undefined when the entry gives none usable (null, "", an object, ...). */
	id?: string;
	number?: string;
	status: string | null;
	/** Undefined when the entry states no cost, null when it states one that is not a number. */
	cost?: number | null;
}

const MAX_ID_LENGTH = 200;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;

function readText(value: unknown): string | undefined {
	if (typeof value === 'string') {
		const trimmed = value.trim();
		return trimmed !== '' && trimmed.length <= MAX_ID_LENGTH ? trimmed : undefined;
	}
	// A number id or phone number is fine as long as it is exact: 1e21 or 0.5 are not ids.
	if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
	return undefined;
}

function readCost(value: unknown): number | null | undefined {
	if (value === undefined) return undefined;
	if (typeof value === 'number' && Number.isFinite(value)) return value;
	if (typeof value === 'string' && PLAIN_DECIMAL.test(value.trim())) return Number(value.trim());
	return null;
}

export function readRecipientEntry(raw: unknown): RecipientEntry {
	const entry =
		raw !== null && typeof raw === 'object' && !Array.isArray(raw)
			? (raw as Record<string, unknown>)
			: {};
	return {
		id: readText(entry.id),
		number: readText(entry.number),
		status: typeof entry.status === 'string' ? entry.status : null,
		cost: readCost(entry.cost),
	};
}

/**
 * The country whose numbers the service reads a local number (0712345678) as: SMSLeopard is a Kenyan
 * service (its answers give +254 numbers and KES costs). A local number of another country then
 * never matches its answered +256... entry: the item is reported "maybe sent", never wrongly paired.
 */
export const LOCAL_COUNTRY_CODE = '254';

/** A phone number as international digits (country code first), or undefined when it is none. */
export function internationalDigits(
	number: string,
	localCountryCode = LOCAL_COUNTRY_CODE,
): string | undefined {
	const digits = number.replace(/\D/g, '');
	if (digits.length < 6) return undefined;
	if (number.trim().startsWith('+')) return digits;
	if (digits.startsWith('00')) return digits.slice(2);
	if (digits.startsWith('0')) return localCountryCode + digits.slice(1);
	return digits;
}

/** The national part of a local number (0712345678 -> 712345678), or undefined for any other. */
function nationalPart(number: string): string | undefined {
	const digits = number.replace(/\D/g, '');
	return !number.trim().startsWith('+') && /^0[1-9]\d{4,}$/.test(digits)
		? digits.slice(1)
		: undefined;
}

/**
 * Whether an answered number is the asked one. An asked local number is read as Kenyan; an answered
 * local number names no country, so it is the asked one only when that was the same local number.
 */
export function sameNumber(asked: string, answered: string): boolean {
	const answeredLocal = nationalPart(answered);
	if (answeredLocal !== undefined) return nationalPart(asked) === answeredLocal;
	const digits = internationalDigits(asked);
	return digits !== undefined && digits === internationalDigits(answered);
}

/**
 * Whether two spellings could be one number in some country: a local number could follow any
 * country code of 1 to 3 digits. Used to find the entries another item could claim, since the
 * service's country for local numbers is an assumption here.
 */
function couldBeSameNumber(asked: string, answered: string): boolean {
	const askedLocal = nationalPart(asked);
	const answeredLocal = nationalPart(answered);
	if (askedLocal === undefined && answeredLocal === undefined) return sameNumber(asked, answered);
	if (askedLocal !== undefined && answeredLocal !== undefined) return askedLocal === answeredLocal;
	const national = (askedLocal ?? answeredLocal) as string;
	const full = internationalDigits(askedLocal === undefined ? asked : answered);
	const codeLength = (full?.length ?? 0) - national.length;
	return full !== undefined && codeLength >= 1 && codeLength <= 3 && full.endsWith(national);
}

/** The entry that provably answers each asked number, in asked order; undefined where none does. */
export function pairRecipients(
	asked: string[],
	entries: RecipientEntry[],
): Array<RecipientEntry | undefined> {
	if (asked.length === 1 && entries.length === 1 && entries[0].number === undefined) {
		return [entries[0]];
	}
	// Every entry that could be each item's, in any country; the item's own is the only one, and it
	// must have the item's number as read here and be claimable by no other item.
	const candidates = asked.map((number) =>
		entries.flatMap((entry, at) =>
			entry.number !== undefined && couldBeSameNumber(number, entry.number) ? [at] : [],
		),
	);
	const claimedBy = new Array<number>(entries.length).fill(0);
	for (const found of candidates) for (const at of found) claimedBy[at]++;
	return candidates.map((found, index) => {
		const entry = found.length === 1 && claimedBy[found[0]] === 1 ? entries[found[0]] : undefined;
		return entry && sameNumber(asked[index], entry.number as string) ? entry : undefined;
	});
}
