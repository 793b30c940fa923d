/**
 * A yardstick, not a product: the least any node can do in n8n to send what this node's defaults
 * send. "Bare Sender" reads one expression per item (the destination), posts the same body through
 * n8n's `httpRequestWithAuthentication` with this package's credential (handed over decrypted, as
 * the node does), 10 requests in flight, and outputs the answers: no checks, no retries, no output
 * fields, no pacing but, optionally, a fixed spacing between starts. Issue 26 asks the node's
 * defaults for 1.25 x N x latency / 10; this says how much of that n8n itself spends (its HTTP stack
 * opens a new connection per request). Measured 2026-11-27 (n8n 2.8.4, 5 runs): with its 10 starts
 * at once, 1.64-1.68 x (answers that come back together queue for n8n's one thread, and the next
 * starts stay together); spaced 1.8 ms apart, 1.24-1.27 x, as the node's defaults; spaced, past
 * n8n's HTTP stack, 1.12 x (CONTRIBUTING, Benchmarks).
 *
 * Written and packed in a temp folder (never the repository; removed with its tarball), installed
 * into the bench's n8n user folder beside the real package, as the e2e harness's probe package is.
 */
import { packOneNodePackage } from '../test/e2e/harness/pack';

export const BARE_SENDER_TYPE = 'n8n-nodes-bench-bare-sender.bareSender';

/**
 * The bare node's spacing between starts, for n8n's floor: the node's spread at these figures
 * (SPREAD_SHARE in pacing.ts: 0.9 x 20 ms / 10), so answers do not all come back at once.
 */
export const BARE_SPACING_MS = 1.8;

const nodeSource = `'use strict';
class BareSender {
	constructor() {
		this.description = {
			displayName: 'Bare Sender', name: 'bareSender', group: ['output'], version: 1,
			description: 'Bench yardstick: the least a node can do per send',
			defaults: { name: 'Bare Sender' }, inputs: ['main'], outputs: ['main'],
			credentials: [{ name: 'smsLeopardApi', required: true }],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'Sender', name: 'sender', type: 'string', default: '' },
				{ displayName: 'Template', name: 'template', type: 'string', default: '' },
				{ displayName: 'Destination', name: 'destination', type: 'string', default: '' },
				{ displayName: 'In Flight', name: 'inFlight', type: 'number', default: 10 },
				{ displayName: 'Spacing (ms)', name: 'spacingMs', type: 'number', default: 0 },
				{ displayName: 'Past n8n', name: 'pastN8n', type: 'boolean', default: false },
			],
		};
	}
	async execute() {
		const items = this.getInputData();
		const data = await this.getCredentials('smsLeopardApi');
		const reference = this.getNode().credentials.smsLeopardApi;
		const url = this.getNodeParameter('url', 0);
		const sender = this.getNodeParameter('sender', 0);
		const template = this.getNodeParameter('template', 0);
		const inFlight = this.getNodeParameter('inFlight', 0);
		const spacingMs = this.getNodeParameter('spacingMs', 0);
		// Past n8n's HTTP stack: Node's own http with one keep-alive agent, as a node must not send
		// (it would skip n8n's SSRF protection, proxy settings and the credential's authenticate).
		const pastN8n = this.getNodeParameter('pastN8n', 0) ? keepAlivePost(inFlight, data) : undefined;
		const out = new Array(items.length);
		let next = 0;
		let due = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				if (spacingMs > 0) {
					const now = performance.now();
					const at = Math.max(now, due);
					due = at + spacingMs;
					if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
				}
				const body = {
					phone_number_id: sender,
					template_id: template,
					destination: this.getNodeParameter('destination', i),
					component_list: { components: [] },
				};
				const answer = pastN8n ? await pastN8n(url, body) : await this.helpers.httpRequestWithAuthentication.call(
					this,
					'smsLeopardApi',
					{ method: 'POST', url, body, json: true },
					{ credentialsDecrypted: { id: reference.id, name: reference.name, type: 'smsLeopardApi', data: { ...data } } },
				);
				out[i] = { json: answer, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: inFlight }, worker));
		return [out];
	}
}
function keepAlivePost(sockets, data) {
	const http = require('http');
	const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
	const authorization = 'Basic ' + Buffer.from(data.apiKey + ':' + data.apiSecret).toString('base64');
	return (url, body) => new Promise((resolve, reject) => {
		const payload = JSON.stringify(body);
		const request = http.request(url, { method: 'POST', agent, headers: {
			authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload),
		} }, (response) => {
			const chunks = [];
			response.on('data', (chunk) => chunks.push(chunk));
			response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
			response.on('error', reject);
		});
		request.on('error', reject);
		request.end(payload);
	});
}
module.exports = { BareSender };
`;

/** Writes and packs the yardstick package; returns the tarball path. */
export function packBareSender(): string {
	return packOneNodePackage('n8n-nodes-bench-bare-sender', 'BareSender', nodeSource);
}
