// The real-n8n harness: install lookup, user folders, CLI runs and the server.
export * from './n8n-install';
export * from './n8n-process';
export * from './user-folder';
export * from './run-workflow';
export * from './n8n-server';
export * from './pack';
export * from './n8n-owner';
export * from './n8n-rest';
export * from './run-on-server';
export * from './folder-templates';
export * from './shared-n8n';
