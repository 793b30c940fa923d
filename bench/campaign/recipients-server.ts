/**
 * The campaign's recipient list, served on loopback as one JSON object (the campaign workflow
 * fetches it with the HTTP Request node as ONE item: an array answer would be split into an item per
 * element). GET /recipients/<count> answers `{ "recipients": [{ "phone": "+2547..." }, ...] }`,
 * built once per count: the list is the bench's input, not something to time.
 */
import { type Server, createServer } from 'http';
import type { AddressInfo } from 'net';

export interface RecipientsServer {
	/** The list of `count` recipients. */
	urlFor(count: number): string;
	/** Every number of a list of `count`, in order. */
	phones(count: number): string[];
	stop(): Promise<void>;
}

/** Distinct Kenyan numbers, +2547 and 8 digits: 100,000 of them without repeats. */
export function campaignPhones(count: number): string[] {
	return Array.from({ length: count }, (_, index) => `+2547${String(index).padStart(8, '0')}`);
}

export async function startRecipientsServer(): Promise<RecipientsServer> {
	const bodies = new Map<number, Buffer>();
	const bodyFor = (count: number): Buffer => {
		let body = bodies.get(count);
		if (!body) {
			const recipients = campaignPhones(count).map((phone) => ({ phone }));
			body = Buffer.from(JSON.stringify({ recipients }));
			bodies.set(count, body);
		}
		return body;
	};
	const server: Server = createServer((req, res) => {
		const match = /^\/recipients\/(\d+)$/.exec(req.url ?? '');
		const count = match ? Number(match[1]) : Number.NaN;
		if (!(count >= 0 && count <= 1_000_000)) {
			res.writeHead(404, { 'content-type': 'application/json' });
			res.end('{"message":"GET /recipients/<count>"}');
			return;
		}
		const body = bodyFor(count);
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
		res.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		urlFor: (count) => `http://127.0.0.1:${port}/recipients/${count}`,
		phones: campaignPhones,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
