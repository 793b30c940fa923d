// The end-to-end suite: the packed package inside real n8n versions (scripts/n8n/versions.json),
// workflows run with `n8n execute` against the sandbox. n8n must be installed first:
// `npm run e2e:install` (cached in .cache/n8n). `npm run test:e2e` does both.
module.exports = {
	preset: 'ts-jest',
	reporters: require('./test/harness/jest-reporters'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 180000,
	// Two files at a time: much of a file's time is n8n starting up and waiting on the sandbox, so
	// two share the 2 cores well. Each file has its own sandbox, user folders and free ports.
	maxWorkers: 2,
	// What the n8n processes print (their logs, the run's JSON) goes through the secret scan too;
	// the package is packed once for every file (test/e2e/global-setup.ts).
	globalSetup: '<rootDir>/test/e2e/global-setup.ts',
	globalTeardown: '<rootDir>/test/e2e/global-teardown.ts',
};
