/**
 * What every real-n8n suite sets up per n8n version: a sandbox, a user folder with the packed
 * package and a credential for that sandbox, the sandbox reset before each test, all removed after.
 * `useSandboxedN8n` runs workflows from their Manual Trigger in one served n8n per suite (as the
 * editor's Execute Workflow does), or with `n8n execute` for suites that set n8n's environment per
 * run; `useServedN8n` serves n8n for suites that activate workflows and call their production URLs.
 */
import {
	type CredentialImport,
	type ExecuteResult,
	N8nRest,
	type N8nServer,
	type RunOptions,
	type UserFolder,
	type WorkflowJson,
	executeWorkflow,
	importCredentials,
	importWorkflow,
	prepareUserFolder,
	removeUserFolder,
	runOnServer,
	sharedServer,
	startN8nServer,
} from './harness';
import { type Sandbox, type SandboxHooks, type SandboxOptions, startSandbox } from '../sandbox';

export interface SandboxedN8n {
	sandbox: Sandbox;
	folder: UserFolder;
	/** Imports and executes a workflow; the result as it came, failed or not. */
	run(json: WorkflowJson, options?: RunOptions): Promise<ExecuteResult>;
}

export interface SandboxedN8nOptions {
	/**
	 * `served` (default): one `n8n start` per suite, each workflow saved and run through the REST
	 * API. `cli`: `n8n import:workflow` and `n8n execute` per run, for runs that set n8n's
	 * environment (RunOptions.env) or measure its memory, which a running server cannot take.
	 */
	engine?: 'served' | 'cli';
	/**
	 * The run's shared n8n of this version (harness/shared-n8n.ts) instead of one of the file's own,
	 * when the global set-up started one: for files that set no n8n environment and read neither
	 * n8n's log nor anything of n8n's but their own workflows' runs (served engine only).
	 */
	shared?: boolean;
}

/** Call inside a describe block: registers its beforeAll, afterAll and beforeEach. */
export function useSandboxedN8n(
	version: string,
	tarball: () => string,
	credentials: (data: Record<string, unknown>) => CredentialImport[],
	sandboxOptions: SandboxOptions = {},
	sandboxHooks: SandboxHooks = {},
	{ engine = 'served', shared = false }: SandboxedN8nOptions = {},
): SandboxedN8n {
	let server: N8nServer | undefined;
	let ownFolder = true;
	let rest: N8nRest | undefined;
	const suite = {
		async run(json: WorkflowJson, options?: RunOptions) {
			if (engine === 'served') {
				if (options?.env || options?.measureMemory || options?.brokerPort)
					throw new Error('a served n8n takes no per-run environment: use engine "cli"');
				if (!server || !rest) throw new Error('the served n8n did not start');
				return await runOnServer(rest, server, withStoredIds(json), options?.timeoutMs);
			}
			const id = await importWorkflow(suite.folder, json);
			return await executeWorkflow(suite.folder, id, options);
		},
	} as SandboxedN8n;

	/** The id n8n gave each credential the workflows name by its fixed id (served engine). */
	const storedIds = new Map<string, string>();
	const withStoredIds = (json: WorkflowJson): WorkflowJson => ({
		...json,
		nodes: (json.nodes as Array<{ credentials?: Record<string, { id?: string }> }>).map((entry) =>
			entry.credentials
				? {
						...entry,
						credentials: Object.fromEntries(
							Object.entries(entry.credentials).map(([type, ref]) => [
								type,
								{ ...ref, id: storedIds.get(ref.id ?? '') ?? ref.id },
							]),
						),
					}
				: entry,
		),
	});

	beforeAll(async () => {
		suite.sandbox = await startSandbox(sandboxOptions, sandboxHooks);
		const imports = credentials({ ...suite.sandbox.credentialData });
		const given = shared && engine === 'served' ? sharedServer(version) : undefined;
		if (given) {
			ownFolder = false;
			({ server, folder: suite.folder } = given);
			rest = await N8nRest.signedIn(server.url);
		} else {
			suite.folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
		}
		if (engine === 'served') {
			if (!given) {
				server = await startN8nServer(suite.folder, { startTimeoutMs: 240_000 });
				rest = await N8nRest.owner(server.url);
			}
			if (!rest) throw new Error('the served n8n did not start');
			// Stored as the editor stores them, under the ids n8n gives; each run's workflow names
			// those (an `n8n import:credentials` start before the server cost 8.6 s per suite).
			for (const entry of imports) {
				const data = entry.data as Record<string, string>;
				storedIds.set(entry.id, (await rest.createCredential(entry.name, entry.type, data)).id);
			}
		} else {
			// Imported with their fixed ids, the ones the workflows name.
			await importCredentials(suite.folder, imports);
		}
	}, 300_000);

	afterAll(async () => {
		if (ownFolder) await server?.stop();
		await suite.sandbox?.stop();
		if (suite.folder && ownFolder) removeUserFolder(suite.folder);
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

export interface ServedN8n {
	sandbox: Sandbox;
	folder: UserFolder;
	server: N8nServer;
	/** Signed in as the owner. */
	rest: N8nRest;
	/** The SMSLeopard credential for the sandbox, stored through the REST API. */
	credential: { id: string; name: string };
}

/** Call inside a describe block: `n8n start` with the packed package, as the editor's user has it. */
export function useServedN8n(
	version: string,
	tarball: () => string,
	options: {
		credentialName: string;
		sandboxOptions?: SandboxOptions;
		/** The run's shared n8n of this version: as SandboxedN8nOptions.shared says. */
		shared?: boolean;
	},
): ServedN8n {
	const suite = {} as ServedN8n;
	let ownFolder = true;

	beforeAll(async () => {
		suite.sandbox = await startSandbox(options.sandboxOptions ?? {});
		const given = options.shared ? sharedServer(version) : undefined;
		if (given) {
			ownFolder = false;
			({ server: suite.server, folder: suite.folder } = given);
			suite.rest = await N8nRest.signedIn(suite.server.url);
		} else {
			suite.folder = await prepareUserFolder({ n8nVersion: version, packageTarball: tarball() });
			suite.server = await startN8nServer(suite.folder, { startTimeoutMs: 240_000 });
			suite.rest = await N8nRest.owner(suite.server.url);
		}
		suite.credential = await suite.rest.createCredential(options.credentialName, 'smsLeopardApi', {
			...suite.sandbox.credentialData,
		});
	}, 300_000);

	afterAll(async () => {
		if (ownFolder) await suite.server?.stop();
		await suite.sandbox?.stop();
		if (suite.folder && ownFolder) removeUserFolder(suite.folder);
	});

	beforeEach(() => suite.sandbox.reset());
	return suite;
}
