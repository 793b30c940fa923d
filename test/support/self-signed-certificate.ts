/**
 * A self-signed key and certificate for `host`, valid one day, made by the openssl command line: for
 * a TLS server nothing trusts (the connection-failure tests) or one trusted by name alone (the demo
 * video's npm stand-in). The PEM files stay in `folder`, for a client that needs the certificate's
 * path.
 */
import { execFileSync } from 'child_process';
import { readFileSync } from 'fs';
import * as path from 'path';

export function selfSignedCertificate(
	host: string,
	folder: string,
): { key: Buffer; cert: Buffer; certFile: string } {
	const keyFile = path.join(folder, 'key.pem');
	const certFile = path.join(folder, 'cert.pem');
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'1',
			'-subj',
			`/CN=${host}`,
			'-addext',
			`subjectAltName=DNS:${host}`,
			'-keyout',
			keyFile,
			'-out',
			certFile,
		],
		{ stdio: ['ignore', 'ignore', 'pipe'] },
	);
	return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}
