// Jest `setupFiles` entry: runs in every test file's sandbox BEFORE any test module (and so
// before n8n-core) is imported.
//
// n8n-core's InstanceSettings writes `$N8N_USER_FOLDER/.n8n/config` (an encryption key) the
// first time anything asks the DI container for it, and its binary-data storage defaults to
// `$N8N_USER_FOLDER/.n8n/storage`. Point both at a throwaway folder so tests never read or
// write a developer's real ~/.n8n. Jest gives each test file its own copy of process.env, so
// every test file gets its own folder. The folder is only named here, not created: n8n-core
// creates it (mkdir -p) when a test actually uses it, so test files that never touch n8n-core
// leave nothing behind; test/harness/index.ts removes it in an afterAll hook.
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER = path.join(tmpdir(), `n8n-harness-${process.pid}-${randomUUID()}`);
// Tell the harness which folder it may delete (it never deletes one it did not create).
process.env.N8N_HARNESS_USER_FOLDER = process.env.N8N_USER_FOLDER;
// A settings file created with mode 0600 does not need re-checking on every load.
process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
// Keep n8n's own logger quiet unless a developer asks for it.
process.env.N8N_LOG_LEVEL ??= 'silent';
// No crash reporting / telemetry from a test run.
process.env.N8N_DIAGNOSTICS_ENABLED ??= 'false';
