// The browser test of the editor: real n8n 2.8.4 with the packed package, driven in headless
// Chromium (/usr/bin/chromium) against the sandbox. `npm run test:editor` installs n8n first (cached).
// Screenshots of every step go to test-artifacts/editor/ (git-ignored).
module.exports = {
	preset: 'ts-jest',
	reporters: require('./test/harness/jest-reporters'),
	testEnvironment: 'node',
	roots: ['<rootDir>/test/editor'],
	testMatch: ['**/*.editor.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 120000,
	maxWorkers: 1,
};
