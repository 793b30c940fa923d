// The end-to-end suite: the packed package inside real n8n versions (scripts/n8n/versions.json),
// workflows run with `n8n execute` against the sandbox. n8n must be installed first:
// `npm run e2e:install` (cached in .cache/n8n). `npm run test:e2e` does both.
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 180000,
	maxWorkers: 1,
	// What the n8n processes print (their logs, the run's JSON) goes through the secret scan too.
	globalSetup: '<rootDir>/test/secret-scan/global-setup.ts',
	globalTeardown: '<rootDir>/test/secret-scan/global-teardown.ts',
};
