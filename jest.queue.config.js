// The queue-mode suite: real n8n 2.8.4 with Postgres, Redis, a main and two workers, workflows
// triggered over HTTP against the sandbox. `npm run test:queue` installs n8n first (cached).
module.exports = {
	preset: 'ts-jest',
	reporters: require('./test/harness/jest-reporters'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/queue'],
	testMatch: ['**/*.queue.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	// test/queue/cluster/show-logs-on-failure.ts ends a test 15 s before it, with n8n's logs.
	testTimeout: 300000,
	maxWorkers: 1,
	// The package packed once for every file (E2E_PACKED_TARBALL), not once per file.
	globalSetup: '<rootDir>/test/queue/global-setup.ts',
	globalTeardown: '<rootDir>/test/queue/global-teardown.ts',
};
