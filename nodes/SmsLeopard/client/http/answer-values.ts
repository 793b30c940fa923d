/**
 * Tolerant readers for the fields of the service's answers. A gateway that answers `true`, `[42]`,
 * `"0x1F"` or `null` where a number belongs must not be reported as a balance of 1, 42 or 31 (what
 * JavaScript's `Number()` makes of them). Each reader takes only what the field's kind really is;
 * any other value becomes `null` and the record gets a note saying what the answer gave instead:
 *
 *   { balance: null, notes: ['balance: the answer gave true, not a number'] }
 *
 * Rules, one per kind:
 * - number: a finite JSON number, or text that is a plain decimal number ("12.50", "-3", "1e3",
 *   surrounding spaces allowed). Not numbers: booleans, lists, objects, "", " ", hex/octal/binary
 *   text ("0x1F"), "1,000", Infinity and NaN (JSON's 1e400 arrives as Infinity).
 * - whole number (counts) and record id (group, contact, sender, media record): a number as above
 *   that is a safe integer (up to 2^53 - 1: beyond it, digits are already lost).
 * - id (message, media, template, phone_number_id): text with something other than spaces in it (at
 *   most 1,000 characters, and not a word for "no value": "null", "undefined", "None", "nil",
 *   "NaN"), or a safe integer, given as its decimal digits.
 * - time: unix seconds, unix milliseconds (a number above 1e11 is milliseconds: 1e11 seconds is the
 *   year 5138, 1e11 milliseconds 1973), or an ISO 8601 date text (a date and time without an offset
 *   is read as UTC). Each gives the same ISO date; the value as given is kept beside it. Not times:
 *   0 and below, above 1e14 milliseconds (microseconds and the like), dates that do not exist.
 * - text: a string. A status of 200 or {} is not turned into "200" or "[object Object]".
 * - flag: true or false.
 * A field that is absent stays absent, and `null` stays `null` without a note, except for ids (null
 * never becomes the id "null": it is noted) and for fields that are required (`requiredAnswer`:
 * absent is a broken answer, `null` is noted) or essential (`essentialAnswer`: without a usable
 * value the answer means nothing, so it is refused, naming the field).
 *
 * Notes name the field (`button[1].type` inside lists) and quote at most a few dozen characters of
 * the value: a list or an object is only described, never repeated.
 *
 * Use: `answerRecord({ id: answerId, status: requiredAnswer(answerText) })` is a zod schema of
 * such a record; the plain `read*` functions serve code that reads one value.
 */
import { z, type ZodType, type ZodTypeDef } from 'zod';

/** A field as read: the value, or null with the notes saying what was odd (each "field: ..."). */
export interface AnswerValue<T> {
	/** Undefined when the answer left the field out. */
	value: T | null | undefined;
	/** Suffixes of notes, to be prefixed with the field's name: ": the answer gave ...". */
	odd: string[];
	/** Odd values inside the field (a list's elements) beyond the notes kept. */
	omitted?: number;
}

export type AnswerField<T> = ZodType<AnswerValue<T>, ZodTypeDef, unknown>;

/** Notes one record keeps; a list of 100,000 odd buttons must not make a 5 MB output item. */
export const MAX_NOTES = 20;
/** How much of an odd text a note quotes. */
const QUOTE_MAX_CHARS = 40;
/** Longer "ids" are not ids (and would bloat every output item that carries them). */
const ID_MAX_CHARS = 1000;
/** Above this a unix time is in milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). */
export const MILLISECONDS_ABOVE = 1e11;

/** The odd value in a few words: text is quoted (cut short), lists and objects only described. */
export function describeGiven(raw: unknown): string {
	if (raw === undefined) return 'nothing';
	if (raw === null) return 'null';
	if (typeof raw === 'string') {
		if (raw.length <= QUOTE_MAX_CHARS) return JSON.stringify(raw);
		return `${JSON.stringify(raw.slice(0, QUOTE_MAX_CHARS))}… (${raw.length} characters)`;
	}
	if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
	if (Array.isArray(raw)) return `a list of ${raw.length} item${raw.length === 1 ? '' : 's'}`;
	if (typeof raw === 'object') return 'an object';
	return `a ${typeof raw}`;
}

/**
 * "12.50", "-3", "1e3", ".5"; not "0x1F", "0b1", "1,000", "Infinity", "" or " ". Written so that no
 * two parts can match the same digits: a megabyte of digits ending in "x" fails in one pass, not in
 * a million squared steps.
 */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** Longer text is no number a gateway means (a double has 17 significant digits). */
const NUMBER_MAX_CHARS = 400;

export function readNumber(raw: unknown): number | undefined {
	let number: number | undefined;
	if (typeof raw === 'number') number = raw;
	else if (typeof raw === 'string' && raw.length <= NUMBER_MAX_CHARS) {
		const text = raw.trim();
		if (DECIMAL.test(text)) number = Number(text);
	}
	if (number === undefined || !Number.isFinite(number)) return undefined;
	return number === 0 ? 0 : number; // -0 reads as 0
}

export function readWholeNumber(raw: unknown): number | undefined {
	const number = readNumber(raw);
	return number !== undefined && Number.isSafeInteger(number) ? number : undefined;
}

/** What a careless serializer writes for "no value" (String(null), str(None)): never an id. */
const NO_VALUE_WORDS = /^\s*(null|undefined|none|nil|nan)\s*$/i;

export function readId(raw: unknown): string | undefined {
	if (typeof raw === 'number') return Number.isSafeInteger(raw) ? String(raw) : undefined;
	if (typeof raw !== 'string') return undefined;
	return raw.trim() !== '' && raw.length <= ID_MAX_CHARS && !NO_VALUE_WORDS.test(raw)
		? raw
		: undefined;
}

export function readText(raw: unknown): string | undefined {
	return typeof raw === 'string' ? raw : undefined;
}

export function readFlag(raw: unknown): boolean | undefined {
	return typeof raw === 'boolean' ? raw : undefined;
}

/** A time as the answer gave it, with the ISO date it means. */
export interface AnswerTime {
	iso: string;
	given: number | string;
}

/** 2021-07-16, 2021-07-16T00:00:00Z, 2021-07-16 00:00:00.123+03:00, ... */
const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function isoFromText(text: string): string | undefined {
	const match = ISO_DATE.exec(text.trim());
	if (!match) return undefined;
	const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] =
		match;
	const milliseconds = (fraction + '000').slice(0, 3);
	const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone;
	const normalizedOffset = offset === 'Z' ? 'Z' : `${offset.slice(0, 3)}:${offset.slice(-2)}`;
	const at = Date.parse(
		`${year}-${month}-${day}T${hour}:${minute}:${second}.${milliseconds}${normalizedOffset}`,
	);
	if (!Number.isFinite(at)) return undefined;
	// Date.parse rolls 2021-02-30 over to March; a date that does not exist is not a date.
	const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
	if (
		calendar.getUTCFullYear() !== Number(year) ||
		calendar.getUTCMonth() !== Number(month) - 1 ||
		calendar.getUTCDate() !== Number(day) ||
		Number(hour) > 23 ||
		Number(minute) > 59 ||
		Number(second) > 59
	) {
		return undefined;
	}
	return new Date(at).toISOString();
}

export function readTime(raw: unknown): AnswerTime | undefined {
	const number = readNumber(raw);
	if (number !== undefined) {
		if (number <= 0) return undefined;
		const milliseconds = number > MILLISECONDS_ABOVE ? number : number * 1000;
		const date = new Date(Math.round(milliseconds));
		// Beyond 1e14 milliseconds (the year 5138) it is neither unit: microseconds or worse.
		if (milliseconds > MILLISECONDS_ABOVE * 1000 || Number.isNaN(date.getTime())) return undefined;
		return { iso: date.toISOString(), given: raw as number | string };
	}
	if (typeof raw !== 'string') return undefined;
	const iso = isoFromText(raw);
	return iso === undefined ? undefined : { iso, given: raw };
}

interface Kind<T> {
	/** "a number": what the note says the value is not. */
	want: string;
	read: (raw: unknown) => T | undefined;
}

/** A field that makes the whole answer unusable: the issue's message. */
interface Refused {
	refused: string;
}

type FieldReader<T> = (raw: unknown) => AnswerValue<T> | Refused;

const kinds = new WeakMap<object, Kind<unknown>>();
/**
 * The plain function behind each field schema, so that a record reads its fields directly: a zod
 * parse per field made a 10,000-group listing five times slower to read.
 */
const fieldReaders = new WeakMap<object, FieldReader<unknown>>();

function oddNote(raw: unknown, want: string): string {
	return `: the answer gave ${describeGiven(raw)}, not ${want}`;
}

function fieldSchema<T, Read extends AnswerValue<T> = AnswerValue<T>>(
	read: FieldReader<T>,
): ZodType<Read, ZodTypeDef, unknown> {
	const schema = z.unknown().transform((raw, context) => {
		const result = read(raw);
		if ('refused' in result) {
			context.addIssue({ code: z.ZodIssueCode.custom, message: result.refused });
			return z.NEVER;
		}
		return result as Read;
	});
	fieldReaders.set(schema, read as FieldReader<unknown>);
	return schema;
}

function answerKind<T>(
	want: string,
	read: (raw: unknown) => T | undefined,
	nullIsOdd = false,
): AnswerField<T> {
	const field = fieldSchema<T>((raw) => {
		if (raw === undefined || (raw === null && !nullIsOdd)) {
			return { value: raw as null | undefined, odd: [] };
		}
		const value = raw === null ? undefined : read(raw);
		return value === undefined ? { value: null, odd: [oddNote(raw, want)] } : { value, odd: [] };
	});
	kinds.set(field, { want, read } as Kind<unknown>);
	return field;
}

export const answerNumber = answerKind('a number', readNumber);
export const answerWholeNumber = answerKind('a whole number', readWholeNumber);
/** Text ids (message, media, template, phone_number_id); null is noted. */
export const answerId = answerKind('an id', readId, true);
/** Whole-number ids of records (group, contact, sender, media record); null is noted. */
export const answerRecordId = answerKind('an id (a whole number)', readWholeNumber, true);
export const answerText = answerKind('text', readText);
export const answerFlag = answerKind('true or false', readFlag);
export const answerTime = answerKind(
	'a time (unix seconds, unix milliseconds or an ISO date)',
	readTime,
);

function kindOf<T>(field: AnswerField<T>): Kind<T> {
	const kind = kinds.get(field);
	if (!kind) throw new Error('requiredAnswer/essentialAnswer take one of the answer* field kinds');
	return kind as Kind<T>;
}

/**
 * A field the answer must have: left out, the answer is not what was asked (an error naming the
 * field); present but odd or null, it is null with a note like any other.
 */
export function requiredAnswer<T>(
	field: AnswerField<T>,
): ZodType<AnswerValue<T> & { value: T | null }, ZodTypeDef, unknown> {
	const { want, read } = kindOf(field);
	return fieldSchema<T, AnswerValue<T> & { value: T | null }>((raw) => {
		if (raw === undefined) return { refused: `is missing (${want})` };
		const value = raw === null ? undefined : read(raw);
		return value === undefined ? { value: null, odd: [oddNote(raw, want)] } : { value, odd: [] };
	});
}

/**
 * A field without which the record means nothing (a media upload without its media_id: nothing can
 * be sent with it). Left out, null or odd, the answer is refused with the field named and `why`.
 */
export function essentialAnswer<T>(
	field: AnswerField<T>,
	why: string,
): ZodType<AnswerValue<T> & { value: T }, ZodTypeDef, unknown> {
	const { want, read } = kindOf(field);
	return fieldSchema<T, AnswerValue<T> & { value: T }>((raw) => {
		const value = raw === undefined || raw === null ? undefined : read(raw);
		if (value === undefined) {
			return { refused: `the answer gave ${describeGiven(raw)}, not ${want}: ${why}` };
		}
		return { value, odd: [] };
	});
}

type FieldShape = Record<string, ZodType<AnswerValue<unknown>, ZodTypeDef, unknown>>;
type ValueOf<F> = F extends ZodType<{ value: infer V }, ZodTypeDef, unknown> ? V : never;

/** A record read from an answer: its fields' values, unknown fields as given, and any notes. */
export type AnswerRecord<S extends FieldShape> = {
	[K in keyof S as undefined extends ValueOf<S[K]> ? never : K]: ValueOf<S[K]>;
} & {
	[K in keyof S as undefined extends ValueOf<S[K]> ? K : never]?: ValueOf<S[K]>;
} & {
	/** Present only when a field was odd: "field: the answer gave ..., not ...". */
	notes?: string[];
} & Record<string, unknown>;

function capNotes(notes: string[], omitted: number): string[] {
	const more = omitted + Math.max(0, notes.length - MAX_NOTES);
	if (more === 0) return notes;
	return [...notes.slice(0, MAX_NOTES), `and ${more} more odd value${more === 1 ? '' : 's'}`];
}

/** A record as `answerRecord` reads it: the record, or the issues that refuse it. */
export type RecordReading<R> =
	{ ok: true; record: R } | { ok: false; issues: Array<{ path: string[]; message: string }> };

/**
 * The plain function behind `answerRecord`, for code that reads many records one by one (every
 * recipient entry of every send answer): the same reading without a zod parse around each record.
 */
export function answerRecordReader<S extends FieldShape>(
	shape: S,
): (raw: unknown) => RecordReading<AnswerRecord<S>> {
	const fields = Object.entries(shape).map(([key, schema]) => {
		const read = fieldReaders.get(schema);
		if (!read) throw new Error(`answerRecord: ${key} is not one of the answer* field kinds`);
		return [key, read] as const;
	});
	return (raw) => {
		if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
			return {
				ok: false,
				issues: [{ path: [], message: `is ${describeGiven(raw)}, not a record` }],
			};
		}
		const given = raw as Record<string, unknown>;
		const record: Record<string, unknown> = { ...given };
		const notes: string[] = [];
		const issues: Array<{ path: string[]; message: string }> = [];
		let omitted = 0;
		for (const [key, read] of fields) {
			const result = read(given[key]);
			if ('refused' in result) {
				issues.push({ path: [key], message: result.refused });
				continue;
			}
			if (result.value === undefined) delete record[key];
			else record[key] = result.value;
			for (const odd of result.odd) notes.push(key + odd);
			omitted += result.omitted ?? 0;
		}
		if (issues.length) return { ok: false, issues };
		if (notes.length) record.notes = capNotes(notes, omitted);
		return { ok: true, record: record as AnswerRecord<S> };
	};
}

/**
 * An object of the answer whose `shape` fields are read with the readers above; its other fields are
 * kept as they came. Notes are collected on the record itself (`notes`, only when there are some),
 * so they reach the output item. An answer's own `notes` field is replaced when there are notes.
 */
export function answerRecord<S extends FieldShape>(
	shape: S,
): ZodType<AnswerRecord<S>, ZodTypeDef, unknown> {
	const read = answerRecordReader(shape);
	return z.unknown().transform((raw, context) => {
		const reading = read(raw);
		if (reading.ok) return reading.record;
		for (const { path, message } of reading.issues) {
			context.addIssue({ code: z.ZodIssueCode.custom, path, message });
		}
		return z.NEVER;
	});
}

/**
 * A list of records inside a record (a template's buttons): not a list is null with a note; each
 * element's notes move up to the outer record as `field[i].inner: ...`.
 */
export function answerList<T extends { notes?: string[] }>(
	element: ZodType<T, ZodTypeDef, unknown>,
): AnswerField<T[]> {
	return fieldSchema<T[]>((raw) => {
		if (raw === undefined || raw === null) return { value: raw as null | undefined, odd: [] };
		if (!Array.isArray(raw)) return { value: null, odd: [oddNote(raw, 'a list')] };
		const odd: string[] = [];
		const value: T[] = [];
		let omitted = 0;
		const note = (text: string) => (odd.length < MAX_NOTES ? odd.push(text) : omitted++);
		raw.forEach((item: unknown, index) => {
			const result = element.safeParse(item);
			if (!result.success) {
				// An element that is not even a record is left out, and said so.
				note(`[${index}]${oddNote(item, 'a record')}`);
				return;
			}
			const { notes, ...rest } = result.data;
			for (const text of notes ?? []) note(`[${index}].${text}`);
			value.push(rest as T);
		});
		return { value, odd, omitted };
	});
}

/** Whether the record carries a note about `field` (its value was odd, not absent). */
export function hasNoteAbout(record: { notes?: string[] }, field: string): boolean {
	return (record.notes ?? []).some((note) => note.startsWith(`${field}:`));
}
