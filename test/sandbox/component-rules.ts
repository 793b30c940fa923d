// component_list rules (docs/api.md "Template send rules", rules 2 and 10): shape of every
// component and field, HEADER/BODY placeholder names, and that every required variable is given.
import { checkButtonFields, type Field } from './button-rules';
import { isPlainObject, typeName } from './http-util';
import { listPlaceholders, placeholdersOf } from './placeholders';
import type { Checked, Problem, Template } from './types';

type ComponentType = 'HEADER' | 'BODY' | 'BUTTONS';
const COMPONENT_TYPES: readonly string[] = ['HEADER', 'BODY', 'BUTTONS'];

const format = (message: string): Problem => ({ status: 400, code: 'invalid_format', message });
const bad = (message: string): Problem => ({ status: 400, code: 'bad_request', message });

/** Shape checks only; returns fields grouped by component type. */
function parseComponents(components: unknown[]): Checked<Map<ComponentType, Field[]>> {
	const byType = new Map<ComponentType, Field[]>();
	for (const [i, component] of components.entries()) {
		const at = `component_list.components[${i}]`;
		if (!isPlainObject(component)) {
			return { ok: false, problem: format(`${at} must be an object, got ${typeName(component)}`) };
		}
		const type = component.component_type;
		if (typeof type !== 'string' || !COMPONENT_TYPES.includes(type)) {
			const got = typeof type === 'string' ? `'${type}'` : typeName(type);
			const message = `${at}.component_type must be one of HEADER, BODY, BUTTONS (upper case), got ${got}`;
			return { ok: false, problem: format(message) };
		}
		if (byType.has(type as ComponentType)) {
			const message = `component_type '${type}' appears more than once; put all its fields in one component`;
			return { ok: false, problem: bad(message) };
		}
		if (!Array.isArray(component.fields)) {
			const message = `${at}.fields must be an array of {name, value}, got ${typeName(component.fields)}`;
			return { ok: false, problem: format(message) };
		}
		const fields: Field[] = [];
		for (const [j, field] of component.fields.entries()) {
			const fat = `${at}.fields[${j}]`;
			if (!isPlainObject(field)) {
				return { ok: false, problem: format(`${fat} must be an object {name, value}`) };
			}
			if (typeof field.name !== 'string' || field.name === '') {
				const message = `${fat}.name must be a non-empty string such as '1', got ${typeName(field.name)}`;
				return { ok: false, problem: format(message) };
			}
			if (typeof field.value !== 'string' || field.value === '') {
				const got = field.value === '' ? 'an empty string' : typeName(field.value);
				const message = `${fat}.value (field '${field.name}') must be a non-empty string, got ${got}`;
				return { ok: false, problem: format(message) };
			}
			if (fields.some((f) => f.name === field.name)) {
				const message = `${type} field '${field.name}' is given twice; send each name once`;
				return { ok: false, problem: bad(message) };
			}
			fields.push({ name: field.name, value: field.value });
		}
		byType.set(type as ComponentType, fields);
	}
	return { ok: true, value: byType };
}

/** HEADER (TEXT header) and BODY: names are placeholder numbers of that text, all required. */
function checkTextFields(
	part: 'HEADER' | 'BODY',
	fields: Field[],
	text: string,
	template: Template,
): Problem | null {
	const known = placeholdersOf(text);
	for (const field of fields) {
		if (!/^[1-9]\d*$/.test(field.name)) {
			return format(
				`${part} field name '${field.name}' must be a placeholder number as a string, such as '1'`,
			);
		}
		if (!known.includes(Number(field.name))) {
			return bad(
				`${part} field '${field.name}' does not match a placeholder of template '${template.id}' (its ${part.toLowerCase()} has ${listPlaceholders(known)})`,
			);
		}
	}
	const missing = known.filter((n) => !fields.some((f) => Number(f.name) === n));
	if (missing.length > 0) {
		return {
			status: 400,
			code: 'missing_variable',
			message: `${part} placeholder(s) ${listPlaceholders(missing)} of template '${template.id}' have no value: add ${part} fields named ${missing.map((n) => `'${n}'`).join(', ')}`,
		};
	}
	return null;
}

function checkHeaderFields(fields: Field[], template: Template): Problem | null {
	const header = template.header;
	if (fields.length > 0 && header === null) {
		return bad(`Template '${template.id}' has no header; remove the HEADER fields`);
	}
	if (fields.length > 0 && header !== null && header.format !== 'TEXT') {
		return bad(
			`Template '${template.id}' has a ${header.format} header, which takes no HEADER fields; send the file as media_id instead`,
		);
	}
	if (header?.format === 'TEXT')
		return checkTextFields('HEADER', fields, header.text ?? '', template);
	return null;
}

export function checkComponents(components: unknown[], template: Template): Problem | null {
	const parsed = parseComponents(components);
	if (!parsed.ok) return parsed.problem;
	const byType = parsed.value;
	return (
		checkHeaderFields(byType.get('HEADER') ?? [], template) ??
		checkTextFields('BODY', byType.get('BODY') ?? [], template.message, template) ??
		checkButtonFields(byType.get('BUTTONS') ?? [], template)
	);
}
