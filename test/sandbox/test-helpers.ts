// Raw-HTTP helpers for the sandbox's own tests: global fetch for JSON, node:http for streamed
// multipart bodies. Deliberately independent of the project's client code.
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET, SENDERS } from './seed';
import type { Sandbox } from './index';

export const AUTH = `Basic ${Buffer.from(`${SANDBOX_API_KEY}:${SANDBOX_API_SECRET}`).toString('base64')}`;
export const PNID = SENDERS.primary.phone_number_id;

export interface Answer {
	status: number;
	headers: Headers;
	body: any; // tests poke at the JSON freely
}

export async function call(
	url: string,
	init: { method?: string; json?: unknown; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
	const headers: Record<string, string> = { authorization: AUTH, ...init.headers };
	let body = init.body;
	if (init.json !== undefined) {
		headers['content-type'] ??= 'application/json';
		body = JSON.stringify(init.json);
	}
	const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, body });
	const text = await res.text();
	return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

export function send(sb: Sandbox, payload: unknown, headers?: Record<string, string>) {
	return call(`${sb.chatUrl}/v1/${sb.channel}/send`, { json: payload, headers });
}

export interface Component {
	component_type: string;
	fields: { name: string; value: string }[];
}

export function body(...fields: [string, string][]): Component {
	return { component_type: 'BODY', fields: fields.map(([name, value]) => ({ name, value })) };
}

export function buttons(...fields: [string, string][]): Component {
	return { component_type: 'BUTTONS', fields: fields.map(([name, value]) => ({ name, value })) };
}

export function header(...fields: [string, string][]): Component {
	return { component_type: 'HEADER', fields: fields.map(([name, value]) => ({ name, value })) };
}

export function sendPayload(
	templateId: string,
	components: Component[],
	extra: Record<string, unknown> = {},
): Record<string, unknown> {
	return {
		destination: '+254712345678',
		template_id: templateId,
		phone_number_id: PNID,
		component_list: { components },
		...extra,
	};
}

export interface StreamPart {
	name: string;
	value?: string;
	file?: { fileName: string; contentType?: string; size: number };
}

/** Stops sending a file part once `afterFileBytes` of it went out, until `hold` settles. */
export interface UploadPause {
	/** A multiple of 64 KiB. */
	afterFileBytes: number;
	hold: () => Promise<void>;
}

/**
 * POSTs multipart/form-data generated on the fly: file parts are `size` bytes produced in 64 KiB
 * chunks, so a 100 MB upload never exists in memory on the sending side either.
 */
export function streamMultipart(
	url: string,
	parts: StreamPart[],
	headers: Record<string, string> = { authorization: AUTH },
	pause?: UploadPause,
): Promise<Answer> {
	const boundary = `----sandbox${Math.random().toString(16).slice(2)}`;
	const pieces: (Buffer | number)[] = [];
	for (const part of parts) {
		let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
		if (part.file) {
			head += `; filename="${part.file.fileName}"\r\n`;
			if (part.file.contentType) head += `Content-Type: ${part.file.contentType}\r\n`;
			pieces.push(Buffer.from(`${head}\r\n`), part.file.size, Buffer.from('\r\n'));
		} else {
			pieces.push(Buffer.from(`${head}\r\n\r\n${part.value ?? ''}\r\n`));
		}
	}
	pieces.push(Buffer.from(`--${boundary}--\r\n`));
	const length = pieces.reduce<number>((n, p) => n + (typeof p === 'number' ? p : p.length), 0);
	const chunk = Buffer.alloc(64 * 1024, 0x61);
	async function* generate() {
		for (const piece of pieces) {
			if (typeof piece !== 'number') {
				yield piece;
				continue;
			}
			for (let left = piece; left > 0; left -= chunk.length) {
				if (pause && piece - left === pause.afterFileBytes) await pause.hold();
				yield left >= chunk.length ? chunk : chunk.subarray(0, left);
			}
		}
	}
	return new Promise((resolve, reject) => {
		const req = request(url, {
			method: 'POST',
			headers: {
				...headers,
				'content-type': `multipart/form-data; boundary=${boundary}`,
				'content-length': String(length),
			},
		});
		req.on('response', (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				resolve({
					status: res.statusCode ?? 0,
					headers: new Headers(res.headers as Record<string, string>),
					body: text ? JSON.parse(text) : undefined,
				});
			});
		});
		req.on('error', reject);
		Readable.from(generate()).pipe(req);
	});
}

/** Uploads a small generated file and returns the media record (expects success). */
export async function uploadMedia(
	sb: Sandbox,
	contentType: string,
	fileName: string,
	extra: StreamPart[] = [],
	phoneNumberId = PNID,
): Promise<any> {
	const res = await streamMultipart(`${sb.chatUrl}/v1/${sb.channel}/media`, [
		{ name: 'phone_number_id', value: phoneNumberId },
		{ name: 'file', file: { fileName, contentType, size: 1024 } },
		...extra,
	]);
	if (res.status !== 200) throw new Error(`upload failed: ${JSON.stringify(res.body)}`);
	return res.body;
}
