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
	// Two files at once, each with its own cluster (its own Postgres, Redis and ports): a queue case
	// mostly waits (sends paced at the sandbox's limit, n8n noticing a lost job), so two side by
	// side take little longer than the longest (campaign.queue.test.ts) alone.
	maxWorkers: 2,
	// The package packed once for every file (E2E_PACKED_TARBALL), not once per file.
	globalSetup: '<rootDir>/test/queue/global-setup.ts',
	globalTeardown: '<rootDir>/test/queue/global-teardown.ts',
};
