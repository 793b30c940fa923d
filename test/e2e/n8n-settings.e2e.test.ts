/**
 * n8n settings that change what reaches the node's neighbours or the service, and that n8n 3.0
 * changes (docs/n8n-3.md): Always Output Data beside the error
 * output, and SSRF protection for the node's requests. The packed package in each real n8n version,
 * served n8n for the first, `n8n execute` for the second (its runs set n8n's environment), against
 * the sandbox; asserted on what the downstream nodes received and on what the
 * sandbox received.
 */
import { existsSync } from 'fs';
import * as path from 'path';

import {
	type ExecuteResult,
	type WorkflowJson,
	n8nCacheDir,
	nodeItems,
	packedForThisFile,
	pairedItems,
} from './harness';
import { selectedVersions } from './matrix';
import { expectOk, useSandboxedN8n } from './sandboxed-n8n';
import { type WorkflowNode, code, fromOutput, node, trigger, workflow } from './workflows/build';
import { flowSend } from './workflows/flow-send';

const GOOD = { id: 'e2eSettingsGood001', name: 'SMSLeopard sandbox' };
/** The same sandbox by name: http://localhost instead of http://127.0.0.1. */
const BY_NAME = { id: 'e2eSettingsByName01', name: 'SMSLeopard sandbox on localhost' };

const tarball = packedForThisFile();

const majorOf = (version: string) => Number(version.split('.')[0]);

/**
 * Whether this n8n has SSRF protection (N8N_SSRF_PROTECTION_ENABLED and its lists): read from the
 * install, not from the version number. n8n 2.12.0 is the first with it (its @n8n/config 2.11.0 has
 * ssrf-protection.config.js, n8n 2.11.4's @n8n/config 2.10.1 has not); of the matrix, 2.41.1.
 */
function hasSsrfProtection(version: string): boolean {
	const modules = path.join(n8nCacheDir(), version, 'node_modules');
	return ['@n8n/config', 'n8n/node_modules/@n8n/config'].some((config) =>
		existsSync(path.join(modules, config, 'dist/configs/ssrf-protection.config.js')),
	);
}

/** What a marketer hangs on each output: it passes on what it received, so its output is that. */
const downstream = (name: string): WorkflowNode => node(name, 'n8n-nodes-base.noOp', 1, {});

describe.each(selectedVersions())('n8n settings in n8n %s', (version) => {
	const credentials = (data: Record<string, unknown>) => [
		{ ...GOOD, type: 'smsLeopardApi', data },
		{
			...BY_NAME,
			type: 'smsLeopardApi',
			data: {
				...data,
				chatUrl: String(data.chatUrl).replace('127.0.0.1', 'localhost'),
				contactsUrl: String(data.contactsUrl).replace('127.0.0.1', 'localhost'),
			},
		},
	];

	describe('Always Output Data with On Error "Continue (using error output)"', () => {
		// n8n's own settings: one served n8n for the three runs (a CLI start each took 15 s).
		const n8n = useSandboxedN8n(version, tarball, credentials);
		const sentTo = () => n8n.sandbox.state.sentMessages.map((message) => message.destination);
		const recipients = (phones: string[]) =>
			code('Recipients', `${JSON.stringify(phones)}.map((phone) => ({ json: { phone } }))`);
		const send = flowSend(GOOD, { onError: 'continueErrorOutput', alwaysOutputData: true });
		const marketerWorkflow = (name: string, phones: string[]): WorkflowJson =>
			workflow(name, [
				[trigger(), recipients(phones), send, downstream('Mark As Sent')],
				[fromOutput(send, 1), downstream('Fix The Number')],
			]);

		it('every item fails: the error output has them all; up to n8n 2.x the success output gets one empty item', async () => {
			const result = await n8n.run(
				marketerWorkflow('always output, all fail', ['not a number', '', '0700']),
			);
			expectOk(result);
			const failed = nodeItems(result.runData, 'Fix The Number');
			expect(failed.map((item) => item.phone)).toEqual(['not a number', '', '0700']);
			for (const item of failed) expect(item.error).toMatchObject({ errorKind: 'validation' });
			if (majorOf(version) < 3) {
				// Measured on 1.123.81, 2.8.4 and 2.41.1: n8n adds an empty item to the first output
				// whenever it is empty, whatever the error output holds (n8n-core's workflow-execute,
				// `if (!nodeSuccessData?.[0]?.[0])`), paired with every input item. A node on the success
				// branch runs once on `{}`: with no recipient and no message id, but it runs, as if
				// something had been sent. n8n 3.0 adds the empty item only when every output is
				// empty, so there "Mark As Sent" does not run at all here.
				expect(nodeItems(result.runData, 'Send')).toEqual([{}]);
				expect(pairedItems(result.runData, 'Send')).toEqual([
					[
						{ item: 0, input: 0 },
						{ item: 1, input: 0 },
						{ item: 2, input: 0 },
					],
				]);
				expect(nodeItems(result.runData, 'Mark As Sent')).toEqual([{}]);
			} else {
				expect(nodeItems(result.runData, 'Send')).toEqual([]);
				expect(result.runData['Mark As Sent']).toBeUndefined();
			}
			expect(n8n.sandbox.state.sentMessages).toEqual([]);
		});

		it('every item is sent: the success output has them all, the error output stays empty in every version', async () => {
			const phones = ['+254710810001', '+254710810002', '+254710810003'];
			const result = await n8n.run(marketerWorkflow('always output, all sent', phones));
			expectOk(result);
			const sent = nodeItems(result.runData, 'Mark As Sent');
			expect(sent.map((item) => item.number)).toEqual(phones);
			expect(sent.every((item) => typeof item.messageId === 'string')).toBe(true);
			// No empty item on the error output in any version: 2.x only ever fills the first
			// output, 3.0 only when every output is empty.
			expect(nodeItems(result.runData, 'Send', { output: 1 })).toEqual([]);
			expect(result.runData['Fix The Number']).toBeUndefined();
			// Each recipient exactly once.
			expect(sentTo()).toEqual(phones);
		});

		it('some fail: each output has its own items and nothing is added', async () => {
			const result = await n8n.run(
				marketerWorkflow('always output, mixed', [
					'+254710820001',
					'not a number',
					'+254710820003',
				]),
			);
			expectOk(result);
			expect(nodeItems(result.runData, 'Mark As Sent').map((item) => item.number)).toEqual([
				'+254710820001',
				'+254710820003',
			]);
			expect(nodeItems(result.runData, 'Fix The Number').map((item) => item.phone)).toEqual([
				'not a number',
			]);
			expect(sentTo()).toEqual(['+254710820001', '+254710820003']);
		});
	});

	describe("SSRF protection for the node's requests (N8N_SSRF_PROTECTION_ENABLED)", () => {
		// Each run sets n8n's environment, which needs a process per run; jest runs this block's
		// set-up only where one of its tests runs (n8n with SSRF protection).
		const n8n = useSandboxedN8n(version, tarball, credentials, {}, {}, { engine: 'cli' });
		const sentTo = () => n8n.sandbox.state.sentMessages.map((message) => message.destination);
		const has = hasSsrfProtection(version);
		/** Skipped, with the reason in its title, where this n8n has no such setting. */
		const protectedIt = (title: string, test: () => Promise<void>) =>
			has
				? it(title, test)
				: it.skip(
						`${title} [skipped: n8n ${version} has no SSRF protection, which came in n8n 2.12.0]`,
						test,
					);
		const oneSend = (credential = GOOD) =>
			workflow('ssrf', [
				[
					trigger(),
					code('Recipient', "[{ json: { phone: '+254710830001' } }]"),
					flowSend(credential),
				],
			]);
		const PROTECTED = { N8N_SSRF_PROTECTION_ENABLED: 'true' };
		const sentOnce = (result: ExecuteResult) => {
			expectOk(result);
			expect(nodeItems(result.runData, 'Send')).toMatchObject([
				{ number: '+254710830001', status: 'Success' },
			]);
			expect(sentTo()).toEqual(['+254710830001']);
		};

		protectedIt(
			'on, no allow list: the send to the sandbox on 127.0.0.1 is blocked before it leaves, and the error says what to set',
			async () => {
				// The second: a host name allow-list does not match an address in the URL.
				for (const env of [PROTECTED, { ...PROTECTED, N8N_SSRF_ALLOWED_HOSTNAMES: '127.0.0.1' }]) {
					const result = await n8n.run(oneSend(), { env });
					expect(result.ok).toBe(false);
					const origin = new URL(n8n.sandbox.credentialData.chatUrl).origin;
					expect(result.error).toMatchObject({
						message: `n8n's SSRF protection blocked the request to ${origin}: 127.0.0.1 is in a blocked IP range. To let n8n reach it, add 127.0.0.1/32 to N8N_SSRF_ALLOWED_IP_RANGES in n8n's environment and restart n8n`,
						description: expect.stringContaining('so nothing was sent: it is safe to run again'),
					});
					// Refused in n8n: not one request reached the sandbox, not even the sender listing.
					expect(n8n.sandbox.requests).toEqual([]);
				}
			},
		);

		protectedIt(
			'on, no allow list, the credential on http://localhost: the error names the name, its address and both settings',
			async () => {
				const result = await n8n.run(oneSend(BY_NAME), { env: PROTECTED });
				expect(result.ok).toBe(false);
				const origin = new URL(n8n.sandbox.credentialData.chatUrl.replace('127.0.0.1', 'localhost'))
					.origin;
				expect(String(result.error?.message)).toMatch(
					new RegExp(
						`^n8n's SSRF protection blocked the request to ${origin}: localhost resolves to (127\\.0\\.0\\.1|::1), in a blocked IP range\\. To let n8n reach it, add localhost to N8N_SSRF_ALLOWED_HOSTNAMES or (127\\.0\\.0\\.1/32|::1/128) to N8N_SSRF_ALLOWED_IP_RANGES in n8n's environment and restart n8n$`,
					),
				);
				expect(n8n.sandbox.requests).toEqual([]);
			},
		);

		protectedIt(
			'on, with 127.0.0.1/32 in N8N_SSRF_ALLOWED_IP_RANGES: the send goes out once',
			async () => {
				sentOnce(
					await n8n.run(oneSend(), {
						env: { ...PROTECTED, N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32' },
					}),
				);
			},
		);

		protectedIt(
			'on, a credential on http://localhost with localhost in N8N_SSRF_ALLOWED_HOSTNAMES: the send goes out once',
			async () => {
				sentOnce(
					await n8n.run(oneSend(BY_NAME), {
						env: { ...PROTECTED, N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' },
					}),
				);
			},
		);
	});
});
