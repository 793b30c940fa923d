import { readdirSync, readFileSync } from 'fs';
import path from 'path';

/** The client must stay usable outside n8n: no file of it may import n8n or the node around it. */
describe('the embedded client knows nothing of n8n', () => {
	const folder = path.join(__dirname, '../../nodes/SmsLeopard/client');
	const files = readdirSync(folder).filter((name) => name.endsWith('.ts'));

	it('has files to check', () => {
		expect(files.length).toBeGreaterThan(10);
	});

	it.each(files)('%s imports only the client, zod, form-data and Node built-ins', (name) => {
		const source = readFileSync(path.join(folder, name), 'utf8');
		const imports = [...source.matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)].map(
			(match) => match[1],
		);
		for (const target of imports) {
			const allowed =
				target.startsWith('./') ||
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
