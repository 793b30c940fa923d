// Runs the scanner's own rules over the source and the packed package, and fails on any finding
// except the one deliberate, documented kind (README, "n8n's community package checks"): the embedded
// client (nodes/SmsLeopard/client/) throws its own typed errors, which the node turns into
// NodeApiError / NodeOperationError with the item index before n8n sees them.
import { ESLint } from 'eslint';
import glob from 'fast-glob';
import {
	SOURCE_FILE_PATTERNS,
	buildScanConfig,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const [source, packed] = process.argv.slice(2);
const DELIBERATE = (file, message) =>
	file.includes('/nodes/SmsLeopard/client/') &&
	message.ruleId === '@n8n/community-nodes/require-node-api-error';

async function scan(label, dir, patterns) {
	const eslint = new ESLint({
		cwd: dir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(patterns, {
		cwd: dir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	let failures = 0;
	let accepted = 0;
	for (const result of results) {
		for (const message of result.messages) {
			const where = `${result.filePath.replace(dir, '.')}:${message.line}`;
			if (message.severity < 2) {
				console.log(`  warning ${where} ${message.message} (${message.ruleId})`);
			} else if (DELIBERATE(result.filePath, message)) {
				accepted++;
				console.log(`  accepted ${where} ${message.ruleId}: the client's own typed error`);
			} else {
				failures++;
				console.log(`  ERROR ${where} ${message.message} (${message.ruleId})`);
			}
		}
	}
	console.log(
		`${label}: ${files.length} files, ${failures} finding(s), ${accepted} accepted by design`,
	);
	return failures;
}

const failures =
	(await scan('source (package.json, nodes, credentials)', source, SOURCE_FILE_PATTERNS)) +
	(await scan('packed package (dist .js, package.json)', packed, ['**/*.js', 'package.json']));
process.exit(failures === 0 ? 0 : 1);
