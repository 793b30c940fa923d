// Binary data the way n8n stores it, through n8n-core's own BinaryDataService in the DI
// container (the same instance `this.helpers.*Binary*` use inside a node):
// - 'filesystem': binary data lives in files under a storage folder and items only carry
//   `binary[field].id` ('filesystem-v2:workflows/…'), with `data` set to the mode name. n8n's
//   default since 2.0 in regular mode, and kept by 3.0;
// - 'default': binary data travels inline, base64 in `binary[field].data`. n8n 1.x's default
//   (in-memory) mode, which 2.x still honours when set and 3.0 removes; items a Code node builds
//   with binary carry it inline like this in every version and mode.
// - 'database' (queue mode's default since 2.0): n8n-core has no manager for it. n8n's
//   DatabaseManager is in the `n8n` package, on n8n's database (@n8n/db's BinaryDataRepository),
//   and n8n's start-up hands it to BinaryDataService.setManager('database', …); without it n8n-core
//   stores a file inline (binary-data.test.ts). The harness registers an in-memory stand-in the same
//   way (InMemoryDatabaseManager below), so ids are 'database:…' and every read loads the whole
//   file, as n8n's does; the queue suite runs the real one, on Postgres.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, binaryToBuffer, prepareBinaryData } from 'n8n-core';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

export type BinaryDataMode = 'default' | 'filesystem' | 'database';

/**
 * n8n's database binary mode as n8n's own DatabaseManager does it (packages/cli,
 * binary-data/database.manager.ts, the same in 2.8.4 and 2.41.1), in memory: each file is one
 * value, and every read, a stream too, loads all of it (`getAsStream` is `getAsBuffer` wrapped in
 * Readable.from). The manager ships with n8n's server, not n8n-core, so n8n-core alone has no
 * database mode (binary-data.test.ts); this stands in for it and counts the whole-file reads.
 */
class InMemoryDatabaseManager {
	readonly files = new Map<string, { data: Buffer; fileName?: string; mimeType?: string }>();
	wholeReads = 0;
	async init(): Promise<void> {}
	async store(
		_location: unknown,
		bufferOrStream: Buffer | Readable,
		metadata: { fileName?: string; mimeType?: string },
	) {
		const data = await binaryToBuffer(bufferOrStream);
		const fileId = randomUUID();
		this.files.set(fileId, { data, ...metadata });
		return { fileId, fileSize: data.length };
	}
	getPath(fileId: string): string {
		return `database://${fileId}`;
	}
	async getAsBuffer(fileId: string): Promise<Buffer> {
		const file = this.files.get(fileId);
		if (!file) throw new Error(`no stored file ${fileId}`);
		this.wholeReads++;
		return Buffer.from(file.data);
	}
	async getAsStream(fileId: string): Promise<Readable> {
		return Readable.from(await this.getAsBuffer(fileId));
	}
	async getMetadata(fileId: string) {
		const file = this.files.get(fileId);
		if (!file) throw new Error(`no stored file ${fileId}`);
		return { fileName: file.fileName, mimeType: file.mimeType, fileSize: file.data.length };
	}
	async deleteMany(): Promise<void> {}
	async deleteManyByFileId(ids: string[]): Promise<void> {
		for (const id of ids) this.files.delete(id);
	}
	async copyByFileId(_location: unknown, sourceFileId: string): Promise<string> {
		const file = this.files.get(sourceFileId);
		if (!file) throw new Error(`no stored file ${sourceFileId}`);
		const fileId = randomUUID();
		this.files.set(fileId, { ...file });
		return fileId;
	}
	async copyByFilePath(
		_location: unknown,
		sourcePath: string,
		metadata: { fileName?: string; mimeType?: string },
	) {
		const data = readFileSync(sourcePath);
		const fileId = randomUUID();
		this.files.set(fileId, { data, ...metadata });
		return { fileId, fileSize: data.length };
	}
	async rename(oldFileId: string, newFileId: string): Promise<void> {
		const file = this.files.get(oldFileId);
		if (!file) throw new Error(`no stored file ${oldFileId}`);
		this.files.delete(oldFileId);
		this.files.set(newFileId, file);
	}
}

let databaseManager: InMemoryDatabaseManager | undefined;

/** Whole-file reads from the 'database' mode's store since useBinaryDataMode('database'). */
export function databaseFileReads(): number {
	return databaseManager?.wholeReads ?? 0;
}

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
	const service = Container.get(BinaryDataService);
	await service.init();
	if (mode === 'database') {
		// As n8n's server does after init: its database manager registered for the mode.
		databaseManager = new InMemoryDatabaseManager();
		service.setManager(
			'database',
			databaseManager as unknown as Parameters<typeof service.setManager>[1],
		);
	}
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
