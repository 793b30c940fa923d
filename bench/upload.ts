/**
 * Benchmark 4: a 100 MB PDF read from disk with n8n in filesystem binary mode, then uploaded by this
 * node and by the HTTP Request node (multipart). Each run is a fresh n8n process; the figure is the
 * peak resident memory of the main n8n process, and its increase over only reading the file.
 */
import { closeSync, openSync, writeSync } from 'fs';
import * as path from 'path';

import type { UserFolder } from '../test/e2e/harness';
import type { Sandbox } from '../test/sandbox';
import { executeMeasured, nodeTimeMs, outputItems, round, runFailure } from './measure';
import { type Section, goal, num } from './report';
import { READ_NODE, TARGET } from './workflows';

export const FILE_BYTES = 100 * 1024 * 1024;
export const FILE_NAME = 'bench-document.pdf';

/** Writes a PDF-typed file of exactly FILE_BYTES, 1 MB at a time (never held whole in memory). */
export function writeBenchPdf(dir: string): string {
	const file = path.join(dir, FILE_NAME);
	const header = Buffer.from('%PDF-1.4\n');
	const trailer = Buffer.from('\n%%EOF\n');
	const chunk = Buffer.alloc(1024 * 1024, '% filler line of the SMSLeopard upload benchmark\n');
	const fd = openSync(file, 'w');
	try {
		writeSync(fd, header);
		let left = FILE_BYTES - header.length - trailer.length;
		while (left > 0) {
			const size = Math.min(left, chunk.length);
			writeSync(fd, chunk, 0, size);
			left -= size;
		}
		writeSync(fd, trailer);
	} finally {
		closeSync(fd);
	}
	return file;
}

export interface UploadIds {
	readOnly: string;
	nodeUpload: string;
	httpUpload: string;
}

interface UploadRun {
	key: string;
	label: string;
	ok: boolean;
	failure?: string;
	peakRssMb: number;
	processMs: number;
	readMs: number;
	uploadMs: number;
	/** The size the sandbox stored, for the upload runs. */
	uploadedBytes?: number;
}

export async function benchUpload(
	folder: UserFolder,
	sandbox: Sandbox,
	ids: UploadIds,
	allowedDir: string,
	log: (message: string) => void,
): Promise<Section> {
	const env = {
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		// n8n 2.x only lets the Read/Write Files node read below these folders (SecurityConfig).
		N8N_RESTRICT_FILE_ACCESS_TO: allowedDir,
	};
	const variants = [
		{ key: 'readOnly', label: '(a) read the file only', id: ids.readOnly, upload: false },
		{
			key: 'nodeUpload',
			label: '(b) read + SMSLeopard Media > Upload',
			id: ids.nodeUpload,
			upload: true,
		},
		{
			key: 'httpUpload',
			label: '(c) read + HTTP Request multipart',
			id: ids.httpUpload,
			upload: true,
		},
	];
	const runs: UploadRun[] = [];
	for (const variant of variants) {
		log(`upload: ${variant.label}`);
		sandbox.reset();
		const run = await executeMeasured(folder, variant.id, { env, timeoutMs: 180_000 });
		const media = sandbox.state.media;
		const readItems = outputItems(run, READ_NODE);
		const uploaded = variant.upload ? media[media.length - 1]?.file_size : undefined;
		const ok =
			run.ok &&
			readItems.length === 1 &&
			(!variant.upload || (media.length === 1 && uploaded === FILE_BYTES));
		runs.push({
			key: variant.key,
			label: variant.label,
			ok,
			failure: ok
				? undefined
				: run.ok
					? `sandbox stored ${media.length} media, ${String(uploaded)} bytes`
					: runFailure(run),
			peakRssMb: round(run.peakRssMb),
			processMs: run.processMs,
			readMs: nodeTimeMs(run, READ_NODE),
			uploadMs: variant.upload ? nodeTimeMs(run, TARGET) : Number.NaN,
			uploadedBytes: uploaded,
		});
	}
	const [readOnly, node, http] = runs;
	const increase = (run: UploadRun) => run.peakRssMb - readOnly.peakRssMb;
	const nodeIncrease = increase(node);
	const httpIncrease = increase(http);
	return {
		title: '4. 100 MB document upload, filesystem binary mode',
		notes: [
			`File: ${FILE_BYTES.toLocaleString('en')} bytes, application/pdf, read with Read/Write Files from Disk.`,
			'One fresh `n8n execute` per row; peak = VmHWM of the main n8n process.',
			...runs.filter((run) => run.failure).map((run) => `${run.label} failed: ${run.failure}`),
		],
		columns: ['run', 'peak MB', 'Δ over (a) MB', 'read ms', 'upload ms', 'process s', 'uploaded'],
		rows: runs.map((run) => [
			run.label,
			num(run.peakRssMb),
			run === readOnly ? '0' : `+${num(increase(run))}`,
			num(run.readMs),
			num(run.uploadMs),
			num(run.processMs / 1000, 1),
			run.uploadedBytes === undefined
				? run.ok
					? 'n/a'
					: 'FAILED'
				: run.ok
					? `${num(run.uploadedBytes / 1024 / 1024)} MB`
					: 'FAILED',
		]),
		goals: [
			goal(
				"SMSLeopard increase ≤ half the HTTP Request node's, and under 20 MB",
				`+${num(nodeIncrease, 1)} MB vs +${num(httpIncrease, 1)} MB (${num(nodeIncrease / httpIncrease, 2)}×)`,
				node.ok && http.ok && nodeIncrease <= httpIncrease / 2 && nodeIncrease < 20,
			),
		],
		data: {
			n8n: folder.n8n.version,
			fileBytes: FILE_BYTES,
			binaryDataMode: 'filesystem',
			runs,
			increaseMb: { node: round(nodeIncrease), httpRequest: round(httpIncrease) },
		},
	};
}
