/** Which n8n versions the suite runs: all of scripts/n8n/versions.json, or E2E_N8N="2.8.4,…". */
import { n8nMatrix } from './harness';

export function selectedVersions(): string[] {
	const all = n8nMatrix().map((entry) => entry.n8n);
	const wanted = process.env.E2E_N8N?.split(',')
		.map((value) => value.trim())
		.filter(Boolean);
	if (!wanted?.length) return all;
	return wanted.map((value) => n8nMatrix().find((entry) => entry.label === value)?.n8n ?? value);
}
