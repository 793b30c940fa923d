/**
 * Every output item and error the suites produce is written here (one JSON line per run), so the
 * global teardown can prove none of them holds the API key or secret.
 */
import { appendFileSync } from 'fs';
import path from 'path';

export function recordForSecretScan(kind: string, value: unknown): void {
	const dir = process.env.SECRET_SCAN_DIR;
	if (!dir) return;
	let text: string;
	try {
		text = JSON.stringify(value, (_key, item: unknown) =>
			item instanceof Error
				? { ...item, name: item.name, message: item.message, stack: item.stack }
				: item,
		);
	} catch {
		text = String(value);
	}
	appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify({ kind, text })}\n`);
}
