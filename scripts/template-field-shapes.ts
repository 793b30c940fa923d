/**
 * Writes test/fixtures/template-fields/: for every commit of the Send Template field builder
 * (`git log --follow` of template-fields.ts), the Values to Send that version's editor saved for
 * the sandbox's templates (its field list and values under its ids), one file per distinct shape.
 * Run `npx tsx scripts/template-field-shapes.ts` after a change of labels or field lists, and
 * commit the new file: test/node/saved-template-fields.test.ts holds the newest to today's shape.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ResourceMapperField } from 'n8n-workflow';
import { describeTemplate } from '../nodes/SmsLeopard/client/whatsapp/templates';
import { SHAPE_TEMPLATES, valueFor } from '../test/fixtures/template-fields/templates';

const ROOT = resolve(__dirname, '..');
const BUILDER = 'nodes/SmsLeopard/actions/message/template-fields.ts';
const OUT = join(ROOT, 'test/fixtures/template-fields');

const git = (...args: string[]) =>
	execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });

type Builder = (template: ReturnType<typeof describeTemplate>) => ResourceMapperField[];

/** The builder as it was at `commit` (or as it is now), loaded beside its siblings of today. */
async function builderAt(commit: string): Promise<Builder> {
	if (commit === 'now') {
		return ((await import(join(ROOT, BUILDER))) as { templateFields: Builder }).templateFields;
	}
	const path = [BUILDER, 'nodes/SmsLeopard/helpers/template-fields.ts'].find((each) => {
		try {
			git('cat-file', '-e', `${commit}:${each}`);
			return true;
		} catch {
			return false;
		}
	}) as string;
	const copy = join(ROOT, path.replace(/template-fields\.ts$/, `.shape-${commit}.ts`));
	writeFileSync(copy, git('show', `${commit}:${path}`));
	try {
		return ((await import(copy)) as { templateFields: Builder }).templateFields;
	} finally {
		rmSync(copy);
	}
}

/** The shape of a field list: its ids (with their tags) and labels, as a short hash. */
export function shapeHash(schemas: Record<string, Array<{ id: string; displayName: string }>>) {
	const shape = Object.entries(schemas).map(([name, fields]) => [
		name,
		fields.map((field) => [field.id, field.displayName]),
	]);
	return createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 12);
}

async function main(): Promise<void> {
	if (!existsSync(OUT)) mkdirSync(OUT, { recursive: true });
	const commits = git('log', '--format=%h %cs %s', '--follow', '--', BUILDER)
		.trim()
		.split('\n')
		.reverse();
	// Today's builder last: a change not committed yet is a shape too.
	commits.push(`now ${new Date().toISOString().slice(0, 10)} the working tree`);
	const seen = new Set(
		readdirSync(OUT)
			.filter((file) => file.endsWith('.json'))
			.map((file) => file.replace(/^\d+-|\.json$/g, '')),
	);
	let number = seen.size;
	for (const line of commits) {
		const [commit, date, ...subject] = line.split(' ');
		const build = await builderAt(commit);
		const schemas: Record<string, ResourceMapperField[]> = Object.fromEntries(
			SHAPE_TEMPLATES.map((template) => [
				template.name,
				build(describeTemplate(template)).map((field) => ({ ...field, removed: false })),
			]),
		);
		const hash = shapeHash(schemas);
		if (seen.has(hash)) continue;
		seen.add(hash);
		number += 1;
		const templateFields = Object.fromEntries(
			Object.entries(schemas).map(([name, schema]) => [
				name,
				{
					mappingMode: 'defineBelow',
					value: Object.fromEntries(
						schema
							.filter((field) => !field.readOnly)
							.map((field) => [field.id, valueFor(field.id)])
							.filter(([, value]) => value !== undefined),
					),
					matchingColumns: [],
					schema,
					attemptToConvertTypes: false,
					convertFieldsToString: false,
				},
			]),
		);
		const file = join(OUT, `${String(number).padStart(2, '0')}-${hash}.json`);
		writeFileSync(
			file,
			`${JSON.stringify({ commit, date, subject: subject.join(' ').slice(0, 160), shape: hash, templateFields }, null, '\t')}\n`,
		);
		console.log(`${file}: shape of ${commit} (${date})`);
	}
}

if (require.main === module) void main();
