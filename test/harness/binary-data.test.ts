// What n8n-core does with the binary data modes on its own, in-process: why the harness offers
// 'filesystem' and 'default' (inline) and not 'database' (binary-data.ts).
import { Container } from '@n8n/di';
import { BinaryDataConfig, BinaryDataService, prepareBinaryData } from 'n8n-core';

// From the harness's index: its afterAll removes the temporary user folder and storage folders.
import { useBinaryDataMode } from '.';
import { HARNESS_WORKFLOW_ID } from './binary-data';

const content = Buffer.from('%PDF-1.4 stored where?');
const store = async () =>
	await prepareBinaryData(content, 'mode-check', HARNESS_WORKFLOW_ID, 'a.pdf', 'application/pdf');

describe('binary data modes in n8n-core alone', () => {
	afterAll(async () => await useBinaryDataMode('filesystem'));

	it("'filesystem' stores the file and the item carries its id", async () => {
		await useBinaryDataMode('filesystem');
		const stored = await store();
		expect(stored.id).toMatch(/^filesystem-v2:/);
		expect(stored.data).toBe('filesystem-v2');
	});

	it("'database' without n8n's DatabaseManager keeps the file inline: in-memory mode under another name", async () => {
		// What the n8n process does before handing BinaryDataService its database manager: the mode
		// set, n8n-core initialised, nothing registered for 'database'.
		Container.get(BinaryDataConfig).mode = 'database';
		await Container.get(BinaryDataService).init();
		const stored = await store();
		// If this fails, n8n-core stores 'database' files itself now: add the mode to the harness
		// and run the header-file cases in it (test/node/header-media.test.ts).
		expect(stored.id).toBeUndefined();
		expect(stored.data).toBe(content.toString('base64'));
	});
});
