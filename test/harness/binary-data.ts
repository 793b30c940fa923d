// Binary data the way n8n stores it, through n8n-core's own BinaryDataService in the DI
// container (the same instance `this.helpers.*Binary*` use inside a node):
// - 'filesystem': binary data lives in files under a storage folder and items only carry
//   `binary[field].id` ('filesystem-v2:workflows/…'), with `data` set to the mode name. n8n's
//   default since 2.0 in regular mode, and kept by 3.0;
// - 'default': binary data travels inline, base64 in `binary[field].data`. n8n 1.x's default
//   (in-memory) mode, which 2.x still honours when set and 3.0 removes; items a Code node builds
//   with binary carry it inline like this in every version and mode.
// Not 'database' (queue mode's default since 2.0): n8n-core has no manager for it. n8n's
// DatabaseManager is in the `n8n` package, on n8n's database (@n8n/db's BinaryDataRepository), and
// n8n's start-up hands it to BinaryDataService.setManager('database', …). Without it n8n-core
// stores a file inline, the in-memory way (binary-data.test.ts), so a harness 'database' mode would
// only be 'default' under another name; the queue suite runs the real one.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, prepareBinaryData } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export type BinaryDataMode = 'default' | 'filesystem';

/** Workflow id every harness run uses; binary input stored by `binaryItem` is filed under it. */
export const HARNESS_WORKFLOW_ID = 'harness-workflow';
const INPUT_EXECUTION_ID = 'harness-input';

let currentMode: BinaryDataMode = 'default';
const storageFolders: string[] = [];

export function getBinaryDataMode(): BinaryDataMode {
	return currentMode;
}

/**
 * Configures and (re)initialises n8n-core's BinaryDataService in the DI container.
 * 'filesystem' uses a fresh temporary storage folder, removed after the test file.
 */
export async function useBinaryDataMode(mode: BinaryDataMode): Promise<void> {
	const config = Container.get(BinaryDataConfig);
	config.mode = mode;
	if (mode === 'filesystem') {
		const parent = process.env.N8N_USER_FOLDER ?? tmpdir();
		mkdirSync(parent, { recursive: true });
		const folder = mkdtempSync(path.join(parent, 'binary-data-'));
		storageFolders.push(folder);
		config.localStoragePath = folder;
	}
	await Container.get(BinaryDataService).init();
	currentMode = mode;
}

/**
 * An input item carrying `data` in binary property `field`, stored the current mode's way
 * (by n8n-core's prepareBinaryData, the helper behind `this.helpers.prepareBinaryData`).
 */
export async function binaryItem(
	json: IDataObject,
	field: string,
	data: Buffer,
	fileName: string,
	mimeType: string,
): Promise<INodeExecutionData> {
	const binaryData = await prepareBinaryData(
		data,
		INPUT_EXECUTION_ID,
		HARNESS_WORKFLOW_ID,
		fileName,
		mimeType,
	);
	return { json, binary: { [field]: binaryData } };
}

/** Removes the storage folders created by useBinaryDataMode('filesystem'). */
export function removeBinaryDataFolders(): void {
	for (const folder of storageFolders.splice(0)) {
		rmSync(folder, { recursive: true, force: true });
	}
}
