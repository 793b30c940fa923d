import { readdirSync, readFileSync } from 'fs';
import path from 'path';

/** The client must stay usable outside n8n: no file of it may import n8n or the node around it. */
describe('the embedded client knows nothing of n8n', () => {
	const folder = path.join(__dirname, '../../nodes/SmsLeopard/client');
	// Every .ts file of the client and its folders (values/, http/, whatsapp/, ...), by relative name.
	const files = (readdirSync(folder, { recursive: true }) as string[]).filter((name) =>
		name.endsWith('.ts'),
	);

	it('has files to check', () => {
		expect(files.length).toBeGreaterThan(40);
	});

	it.each(files)('%s imports only the client, zod, form-data and Node built-ins', (name) => {
		const source = readFileSync(path.join(folder, name), 'utf8');
		// Not a quoted word such as the field name 'from' in a list: only from/import as code.
		const imports = [
			...source.matchAll(/(?<![\w'"])(?:from|import|require\()\s*['"]([^'"]+)['"]/g),
		].map((match) => match[1]);
		for (const target of imports) {
			// A relative import must stay inside the client.
			const inside =
				target.startsWith('.') &&
				!path
					.relative(folder, path.resolve(path.dirname(path.join(folder, name)), target))
					.startsWith('..');
			const allowed =
				inside ||
				['zod', 'form-data', 'stream', 'http', 'https', 'timers/promises', 'crypto'].includes(
					target,
				);
			expect({ file: name, import: target, allowed }).toEqual({
				file: name,
				import: target,
				allowed: true,
			});
		}
	});
});
