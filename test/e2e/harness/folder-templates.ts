/**
 * The e2e suite's user folder templates, made once per n8n version by its global set-up: a folder
 * with the packed package installed, on which `n8n start` ran once (and stopped before any owner
 * was made), so its database is created and migrated. Each file's `prepareUserFolder` copies it
 * instead of installing the package and letting its first n8n start migrate a fresh database.
 */
import { rmSync } from 'fs';
import * as path from 'path';

import { prepareUserFolder, TEMPLATES_ENV } from './user-folder';
import { startN8nServer } from './n8n-server';

/** Makes one template per version, all at once; sets TEMPLATES_ENV for jest's workers. */
export async function makeFolderTemplates(versions: string[], tarball: string): Promise<void> {
	// E2E_FOLDER_TEMPLATES=0: every file installs and migrates its own, as before the templates.
	if (process.env.E2E_FOLDER_TEMPLATES === '0') return;
	const started = Date.now();
	const folders = await Promise.all(
		versions.map(async (version) => {
			const folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball });
			const server = await startN8nServer(folder, { startTimeoutMs: 240_000 });
			await server.stop();
			// What the start wrote for its own run, not for the copies' (they write their own).
			for (const name of ['crash.journal', 'n8nEventLog.log'])
				rmSync(path.join(folder.n8nDir, name), { force: true });
			return [version, folder.root] as const;
		}),
	);
	process.env[TEMPLATES_ENV] = JSON.stringify({ tarball, folders: Object.fromEntries(folders) });
	console.log(
		`\nuser folder templates (n8n ${versions.join(', ')}) made in ${Date.now() - started} ms`,
	);
}

export function removeFolderTemplates(): void {
	const given = process.env[TEMPLATES_ENV];
	if (!given) return;
	const { folders } = JSON.parse(given) as { folders: Record<string, string> };
	for (const root of Object.values(folders)) rmSync(root, { recursive: true, force: true });
	delete process.env[TEMPLATES_ENV];
}
