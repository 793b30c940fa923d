/**
 * Which entry of a send answer belongs to which asked recipient. A message id goes to an item only
 * from the entry that is provably its own, because a wrong pairing hands one customer another's
 * message id (and its delivery reports), and an item left without an entry is reported "maybe
 * sent", never "safe to run again". An entry is an item's own when exactly one entry has the
 * item's number (spelled any way, local numbers read as Kenyan) and that entry matches no other item
 * of the request, even in another country (0712345678 could be +256712345678 for an account outside
 * Kenya). The order of the answer is not trusted: entries that could be either of two items could
 * have been listed in any order, so they pair with neither. Only a lone recipient answered by a lone
 * entry without a number is paired by position.
 */
import {
	answerId,
	answerNumber,
	answerRecordReader,
	answerText,
	describeGiven,
} from './answer-values';

/** One recipient entry of a send answer, read without trusting its types (answer-values.ts). */
export interface RecipientEntry {
	/** The message id; undefined when the entry gives none usable (null, "", an object, ...). */
	id?: string;
	number?: string;
	status: string | null;
	/** Undefined when the entry states no cost, null when it states one that is not a number. */
	cost?: number | null;
	/** What was odd in the entry ("cost: the answer gave \"abc\", not a number"). */
	notes?: string[];
}

/**
 * A phone number may come as digits in a JSON number: read it like a text id. Read without zod: a
 * 10,000-recipient SMS run reads 10,000 entries.
 */
const readEntry = answerRecordReader({
	id: answerId,
	number: answerId,
	status: answerText,
	cost: answerNumber,
});

export function readRecipientEntry(raw: unknown): RecipientEntry {
	const read = readEntry(raw);
	if (!read.ok) {
		return {
			status: null,
			notes: [`recipient: the answer gave ${describeGiven(raw)}, not a record`],
		};
	}
	const { id, number, status, cost, notes } = read.record;
	return {
		id: id ?? undefined,
		number: number ?? undefined,
		status: status ?? null,
		...(cost !== undefined ? { cost } : {}),
		...(notes ? { notes } : {}),
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

/** A number's two readings, worked out once per number: pairing looks entries up by them. */
export interface NumberForms {
	/** The national part of a local number (0712345678 -> 712345678). */
	national?: string;
	/** International digits, a local number read as Kenyan. */
	international?: string;
}

export function formsOf(number: string): NumberForms {
	return { national: nationalPart(number), international: internationalDigits(number) };
}

/**
 * Whether an answered number is the asked one. An asked local number is read as Kenyan; an answered
 * local number names no country, so it is the asked one only when that was the same local number.
 */
export function sameNumber(asked: string, answered: string): boolean {
	return sameForms(formsOf(asked), formsOf(answered));
}

function sameForms(asked: NumberForms, answered: NumberForms): boolean {
	if (answered.national !== undefined) return asked.national === answered.national;
	return asked.international !== undefined && asked.international === answered.international;
}

/** A list of positions for each key, built up one position at a time. */
class Positions extends Map<string, number[]> {
	add(key: string | undefined, at: number): void {
		if (key === undefined) return;
		const list = this.get(key);
		if (list) list.push(at);
		else this.set(key, [at]);
	}
	of(key: string | undefined): number[] {
		return key === undefined ? [] : (this.get(key) ?? []);
	}
}

/**
 * The entries that could be an asked number in some country, in entry order. Two spellings could
 * be one number when they read the same (both local: the same national part; both international:
 * the same digits), or when one is local and the other international: a local number could follow
 * any country code of 1 to 3 digits. Used to find the entries another item could claim, since the
 * service's country for local numbers is an assumption here. Found by their digits: an
 * international entry by its digits and by what follows a country code of 1 to 3 digits, a local
 * entry by its national part.
 */
export function entryLookup(
	entryForms: Array<NumberForms | undefined>,
): (asked: NumberForms) => number[] {
	const byInternational = new Positions();
	const byNational = new Positions();
	/** International entries by what follows a country code of 1 to 3 digits. */
	const byNationalAfterCode = new Positions();
	entryForms.forEach((forms, at) => {
		if (!forms) return;
		if (forms.national !== undefined) return byNational.add(forms.national, at);
		const full = forms.international;
		byInternational.add(full, at);
		for (let code = 1; full !== undefined && code <= 3 && code < full.length; code++) {
			byNationalAfterCode.add(full.slice(code), at);
		}
	});
	return (asked) => {
		const found =
			asked.national !== undefined
				? [...byNational.of(asked.national), ...byNationalAfterCode.of(asked.national)]
				: [
						...byInternational.of(asked.international),
						...[1, 2, 3].flatMap((code) =>
							asked.international !== undefined && code < asked.international.length
								? byNational.of(asked.international.slice(code))
								: [],
						),
					];
		return [...new Set(found)].sort((a, b) => a - b);
	};
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
	// Each number read once, and entries looked up by their digits, not compared with every item
	// (100 recipients a request were 10,000 comparisons).
	const askedForms = asked.map(formsOf);
	const entryForms = entries.map((entry) =>
		entry.number === undefined ? undefined : formsOf(entry.number),
	);
	const lookup = entryLookup(entryForms);
	const candidates = askedForms.map((forms) => lookup(forms));
	const claimedBy = new Array<number>(entries.length).fill(0);
	for (const found of candidates) for (const at of found) claimedBy[at]++;
	return candidates.map((found, index) => {
		const entry = found.length === 1 && claimedBy[found[0]] === 1 ? entries[found[0]] : undefined;
		const answered = entry ? entryForms[found[0]] : undefined;
		return entry && answered && sameForms(askedForms[index], answered) ? entry : undefined;
	});
}
