/**
 * What every `n8n execute` suite sets up per n8n version: a sandbox, a user folder with the packed
 * package and credentials for that sandbox, the sandbox reset before each test, all removed after.
 */
import {
	type CredentialImport,
	type ExecuteResult,
	type RunOptions,
	type UserFolder,
	type WorkflowJson,
	executeWorkflow,
	importCredentials,
	importWorkflow,
	prepareUserFolder,
	removeUserFolder,
} from './harness';
import { type Sandbox, type SandboxHooks, type SandboxOptions, startSandbox } from '../sandbox';

export interface SandboxedN8n {
	sandbox: Sandbox;
	folder: UserFolder;
	/** Imports and executes a workflow; the result as it came, failed or not. */
	run(json: WorkflowJson, options?: RunOptions): Promise<ExecuteResult>;
}

/** Call inside a describe block: registers its beforeAll, afterAll and beforeEach. */
export function useSandboxedN8n(
	version: string,
	tarball: () => string,
	credentials: (data: Record<string, unknown>) => CredentialImport[],
	sandboxOptions: SandboxOptions = {},
	sandboxHooks: SandboxHooks = {},
): SandboxedN8n {
	const suite = {
		async run(json: WorkflowJson, options?: RunOptions) {
			const id = await importWorkflow(suite.folder, json);
			return await executeWorkflow(suite.folder, id, options);
		},
	} as SandboxedN8n;

	beforeAll(async () => {
		suite.sandbox = await startSandbox(sandboxOptions, sandboxHooks);
		suite.folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
		await importCredentials(suite.folder, credentials({ ...suite.sandbox.credentialData }));
	}, 300_000);

	afterAll(async () => {
		await suite.sandbox?.stop();
		if (suite.folder) removeUserFolder(suite.folder);
	});

	beforeEach(() => suite.sandbox.reset());
	return suite;
}

export function expectOk(result: ExecuteResult): void {
	if (!result.ok)
		throw new Error(
			`run failed (exit ${String(result.exitCode)}): ${JSON.stringify(result.error)}\n${result.stderr.slice(-2000)}\n${result.stdout.slice(-1000)}`,
		);
}
