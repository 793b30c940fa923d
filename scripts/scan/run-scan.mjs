// n8n's community package scanner, unfiltered: its own analyzePackage() on the source (with the
// scanner's SOURCE_FILE_PATTERNS: package.json, nodes/, credentials/) and on the unpacked tarball
// (its default patterns, as for a published package). Nothing is accepted or filtered out, so this
// passes exactly when the scanner would.
import {
	SOURCE_FILE_PATTERNS,
	analyzePackage,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const [source, packed] = process.argv.slice(2);

async function scan(label, dir, patterns) {
	const result = await analyzePackage(dir, patterns);
	console.log(`${label}: ${result.passed ? 'passed' : `FAILED: ${result.message}`}`);
	if (result.details) console.log(result.details);
	return result.passed;
}

const sourcePassed = await scan(
	'source (package.json, nodes, credentials)',
	source,
	SOURCE_FILE_PATTERNS,
);
const packedPassed = await scan('packed package', packed);
process.exit(sourcePassed && packedPassed ? 0 : 1);
