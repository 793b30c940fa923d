// Unit and integration tests: the client and the node against the in-process sandbox.
// The end-to-end suite in real n8n (jest.e2e.config.js), queue mode (jest.queue.config.js) and the
// browser test of the editor (jest.editor.config.js) have their own.
const { cpus } = require('os');

module.exports = {
	preset: 'ts-jest',
	reporters: require('./test/harness/jest-reporters'),
	// Two files at a time even on 2 cores, where jest's default (cores - 1) runs one: the slowest
	// files mostly wait (the sandbox's latency, Retry-After, timeouts), so on the 2-core machine the
	// suite took 159 s with two workers and 328 s with one, for 139 s of CPU either way (2026-11-27).
	maxWorkers: Math.max(2, cpus().length - 1),
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: [
		'/node_modules/',
		'/dist/',
		'/test/e2e/',
		'/test/queue/',
		'/test/editor/',
	],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 30000,
	setupFiles: ['<rootDir>/test/harness/setup-env.ts', '<rootDir>/test/harness/record-logs.ts'],
	// Every node output, error and n8n log line is recorded; the teardown fails the run if one holds
	// a secret.
	globalSetup: '<rootDir>/test/secret-scan/global-setup.ts',
	globalTeardown: '<rootDir>/test/secret-scan/global-teardown.ts',
};
