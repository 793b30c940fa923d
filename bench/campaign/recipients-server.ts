/**
 * The campaign's recipient list, served on loopback in one piece, fetched with the HTTP Request node
 * as ONE item: GET /recipients/<count>.csv as a published sheet gives it (`phone,name` lines, what the
 * shipped campaign reads), GET /recipients/<count> as one JSON object `{ "recipients": [{ "phone", "name" }] }`
 * (an array answer would be split into an item per element). Built once per count: the list is the
 * bench's input, not something to time.
 */
import { type Server, createServer } from 'http';
import type { AddressInfo } from 'net';

export interface RecipientsServer {
	/** The list of `count` recipients, as JSON or as CSV. */
	urlFor(count: number, format?: 'json' | 'csv'): string;
	/** Every number of a list of `count`, in order. */
	phones(count: number): string[];
	stop(): Promise<void>;
}

/** Distinct Kenyan numbers, +2547 and 8 digits: 100,000 of them without repeats. */
export function campaignPhones(count: number): string[] {
	return Array.from({ length: count }, (_, index) => `+2547${String(index).padStart(8, '0')}`);
}

export async function startRecipientsServer(): Promise<RecipientsServer> {
	const bodies = new Map<string, Buffer>();
	const bodyFor = (count: number, csv: boolean): Buffer => {
		const key = `${count}${csv ? '.csv' : ''}`;
		let body = bodies.get(key);
		if (!body) {
			const phones = campaignPhones(count);
			body = Buffer.from(
				csv
					? ['phone,name', ...phones.map((phone, index) => `${phone},Customer ${index}`)].join('\n')
					: JSON.stringify({
							recipients: phones.map((phone, index) => ({ phone, name: `Customer ${index}` })),
						}),
			);
			bodies.set(key, body);
		}
		return body;
	};
	const server: Server = createServer((req, res) => {
		const match = /^\/recipients\/(\d+)(\.csv)?$/.exec(req.url ?? '');
		const count = match ? Number(match[1]) : Number.NaN;
		if (!(count >= 0 && count <= 1_000_000)) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"message":"GET /recipients/<count>(.csv)"}');
			return;
		}
		const csv = match?.[2] === '.csv';
		const body = bodyFor(count, csv);
		const type = csv ? 'text/csv' : 'application/json';
		res.writeHead(200, { 'content-type': type, 'content-length': body.length });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		urlFor: (count, format = 'json') =>
			`http://127.0.0.1:${port}/recipients/${count}${format === 'csv' ? '.csv' : ''}`,
		phones: campaignPhones,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
