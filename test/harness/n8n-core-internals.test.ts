/**
 * The harness's one reach inside n8n-core (n8n-core-internals.ts): with the installed n8n-core it
 * finds the very SSHClientsManager whose cleanup interval n8n-core's contexts start, and stops it;
 * with a version or a layout it does not know it fails naming the path and the version.
 */
import { Container } from '@n8n/di';
import { CredentialTestContext } from 'n8n-core';
import {
	CHECKED_N8N_CORE_MAJORS,
	SSH_CLIENTS_MANAGER_PATH,
	installedN8nCoreVersion,
	sshClientsManagerClass,
} from './n8n-core-internals';

const CLEANUP_EVERY_MS = 60 * 1000;

describe('with the installed n8n-core', () => {
	it('is a major the adapter was checked against', () => {
		const version = installedN8nCoreVersion();
		expect(version).toMatch(/^\d+\.\d+\.\d+/);
		expect(CHECKED_N8N_CORE_MAJORS).toContain(Number.parseInt(version, 10));
	});

	it("stops the cleanup interval that a node context's SSH helpers started", () => {
		const setInterval = jest.spyOn(global, 'setInterval');
		const clearInterval = jest.spyOn(global, 'clearInterval');
		try {
			new CredentialTestContext();
			const started = setInterval.mock.calls.findIndex((call) => call[1] === CLEANUP_EVERY_MS);
			expect(started).toBeGreaterThanOrEqual(0);
			const timer = setInterval.mock.results[started]?.value as unknown;

			// The same class the context asked the container for: no second manager, no second timer.
			Container.get(sshClientsManagerClass()).onShutdown();
			expect(setInterval.mock.calls.filter((call) => call[1] === CLEANUP_EVERY_MS)).toHaveLength(1);
			expect(clearInterval).toHaveBeenCalledWith(timer);
		} finally {
			setInterval.mockRestore();
			clearInterval.mockRestore();
		}
	});
});

describe('with an n8n-core it does not know', () => {
	class FakeManager {
		onShutdown(): void {}
	}
	const notFound = Object.assign(new Error(`Cannot find module '${SSH_CLIENTS_MANAGER_PATH}'`), {
		code: 'MODULE_NOT_FOUND',
	});

	it('fails naming the path and the version when the file moved', () => {
		const load = (id: string) => {
			if (id === 'n8n-core') return {};
			throw notFound;
		};
		expect(() => sshClientsManagerClass({ version: '2.99.0', load })).toThrow(
			`cannot load ${SSH_CLIENTS_MANAGER_PATH} (n8n-core 2.99.0): MODULE_NOT_FOUND`,
		);
	});

	it('fails naming the path and the version when the file no longer has the class', () => {
		const load = (id: string) => (id === 'n8n-core' ? {} : { SomethingElse: FakeManager });
		expect(() => sshClientsManagerClass({ version: '2.99.0', load })).toThrow(
			`${SSH_CLIENTS_MANAGER_PATH} (n8n-core 2.99.0) no longer exports an SSHClientsManager class with onShutdown()`,
		);
	});

	it('refuses a major it was not checked against, before loading the internal path', () => {
		const load = jest.fn((id: string) =>
			id === 'n8n-core' ? {} : { SSHClientsManager: FakeManager },
		);
		expect(() => sshClientsManagerClass({ version: '3.0.0', load })).toThrow(
			`n8n-core 3.0.0 is a major this harness was not checked against`,
		);
		expect(load).not.toHaveBeenCalledWith(SSH_CLIENTS_MANAGER_PATH);
	});

	it("takes the class from n8n-core's index once a version exports it, without the internal path", () => {
		const load = jest.fn((id: string) => {
			if (id === 'n8n-core') return { SSHClientsManager: FakeManager };
			throw notFound;
		});
		expect(sshClientsManagerClass({ version: '3.0.0', load })).toBe(FakeManager);
		expect(load).not.toHaveBeenCalledWith(SSH_CLIENTS_MANAGER_PATH);
	});
});
