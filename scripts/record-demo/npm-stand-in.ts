/**
 * Lets the real Settings > Community Nodes install run while this package is not on npm yet.
 *
 * n8n 2.8.4 installs a community package with `npm view`, `npm pack <name>@<version>` and
 * `npm install`, always with `--registry=https://registry.npmjs.org` (its
 * N8N_COMMUNITY_PACKAGES_REGISTRY needs an enterprise licence, checked in getNpmRegistry()). npm
 * honours an HTTPS proxy from its own config (npm_config_https_proxy) and a CA file
 * (npm_config_cafile), both read from the environment n8n hands to npm. This is that proxy: for
 * registry.npmjs.org it answers the requests for this one package with the tarball packed from the
 * checkout (packument, version document, tarball, with their real sha512), under a certificate made
 * here and trusted by npm only. Any other package or host gets 404 / refused, never the real
 * registry, so nothing else can slip in. n8n's own HTTP client is not proxied: its first version
 * check goes to the real registry, gets 404 and falls back to `npm view`, which comes here.
 */
import { execFileSync } from 'child_process';
import { createHash } from 'crypto';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'http';
import { createServer as createHttpsServer } from 'https';
import { type AddressInfo, type Socket, connect } from 'net';
import { tmpdir } from 'os';
import * as path from 'path';

import { selfSignedCertificate } from '../../test/support/self-signed-certificate';

export const NPM_REGISTRY_HOST = 'registry.npmjs.org';

export interface NpmStandIn {
	/** The environment to give n8n (and so the npm it runs): the proxy and the CA for it. */
	npmEnv: Record<string, string>;
	/** Package name and version it serves, e.g. n8n-nodes-smsleopard@0.1.0. */
	spec: string;
	/** What npm asked for, in order ("GET /n8n-nodes-smsleopard 200"). */
	requests: string[];
	stop(): Promise<void>;
}

interface Manifest {
	name: string;
	version: string;
	[key: string]: unknown;
}

function readManifest(tarball: string): Manifest {
	const text = execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], {
		encoding: 'utf8',
	});
	return JSON.parse(text) as Manifest;
}

/** Serves `tarball` (from `npm pack`) as its package would be served by registry.npmjs.org. */
export async function startNpmStandIn(tarball: string): Promise<NpmStandIn> {
	const folder = mkdtempSync(path.join(tmpdir(), 'npm-stand-in-'));
	const { key, cert, certFile } = selfSignedCertificate(NPM_REGISTRY_HOST, folder);
	const bytes = readFileSync(tarball);
	const manifest = readManifest(tarball);
	const { name, version } = manifest;
	const tarballPath = `/${name}/-/${name}-${version}.tgz`;
	const versionDocument = {
		...manifest,
		_id: `${name}@${version}`,
		dist: {
			tarball: `https://${NPM_REGISTRY_HOST}${tarballPath}`,
			shasum: createHash('sha1').update(bytes).digest('hex'),
			integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
		},
	};
	const packument = {
		_id: name,
		name,
		'dist-tags': { latest: version },
		versions: { [version]: versionDocument },
		time: { [version]: new Date().toISOString() },
	};
	const requests: string[] = [];

	const answer = (request: IncomingMessage, response: ServerResponse) => {
		// npm asks for scoped-style escapes sometimes: /n8n-nodes-smsleopard or %2f forms.
		const wanted = decodeURIComponent(new URL(request.url ?? '/', 'https://x').pathname);
		let status = 404;
		let body: Buffer | string = JSON.stringify({ error: 'Not found' });
		let type = 'application/json';
		if (request.method === 'GET' && wanted === `/${name}`) {
			status = 200;
			body = JSON.stringify(packument);
		} else if (
			request.method === 'GET' &&
			(wanted === `/${name}/${version}` || wanted === `/${name}/latest`)
		) {
			status = 200;
			body = JSON.stringify(versionDocument);
		} else if (request.method === 'GET' && wanted === tarballPath) {
			status = 200;
			body = bytes;
			type = 'application/octet-stream';
		}
		requests.push(`${request.method} ${wanted} ${status}`);
		response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
		response.end(body);
	};

	const registry = createHttpsServer({ key, cert }, answer);
	const proxy = createServer((request, response) => {
		// Plain-http proxying is never needed: npm reaches the registry over https (CONNECT).
		requests.push(`${request.method} ${request.url} refused`);
		response.writeHead(403).end();
	});
	const sockets = new Set<Socket>();
	proxy.on('connection', (socket) => {
		sockets.add(socket);
		socket.once('close', () => sockets.delete(socket));
	});
	proxy.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
		socket.on('error', () => socket.destroy());
		if (request.url === `${NPM_REGISTRY_HOST}:443`) {
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			registry.emit('connection', socket);
			return;
		}
		// n8n's own HTTPS calls follow the same proxy setting (its proxy agent reads npm_config_*):
		// they go on unchanged, e.g. its check with api.n8n.io that a package is not banned.
		const [host, port] = (request.url ?? '').split(':');
		requests.push(`CONNECT ${request.url} passed through`);
		const upstream = connect(Number(port) || 443, host, () => {
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			upstream.write(head);
			upstream.pipe(socket);
			socket.pipe(upstream);
		});
		upstream.on('error', () => socket.destroy());
		socket.once('close', () => upstream.destroy());
	});
	await new Promise<void>((resolve, reject) => {
		proxy.once('error', reject);
		proxy.listen(0, '127.0.0.1', () => resolve());
	});
	const port = (proxy.address() as AddressInfo).port;
	const proxyUrl = `http://127.0.0.1:${port}`;

	return {
		spec: `${name}@${version}`,
		npmEnv: {
			// https only: n8n's proxy agent reads npm_config_proxy too and would send its plain-http
			// calls (the sandbox on 127.0.0.1) here.
			npm_config_https_proxy: proxyUrl,
			// The CA file for npm only: the stand-in's certificate is trusted by nothing else.
			npm_config_cafile: certFile,
			// n8n itself asks registry.npmjs.org whether the version exists before running npm (a
			// failure there falls back to `npm view`, which only works for an exact version typed).
			NODE_EXTRA_CA_CERTS: certFile,
			// A cache of its own, so the stand-in's answers never land in the user's ~/.npm.
			npm_config_cache: path.join(folder, 'npm-cache'),
			npm_config_loglevel: 'error',
			npm_config_update_notifier: 'false',
		},
		requests,
		stop: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => proxy.close(() => resolve()));
			registry.close();
			rmSync(folder, { recursive: true, force: true });
		},
	};
}
