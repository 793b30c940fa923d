/**
 * What the reviewers' recording runs against: the sandbox, the npm stand-in serving the packed
 * package, and n8n on a fresh user folder WITHOUT the package (the video installs it), with the two
 * demo workflows imported. `stop()` undoes each part that started, whatever failed.
 */
import {
	type N8nServer,
	type UserFolder,
	ensureN8n,
	freePort,
	importWorkflows,
	packPackage,
	prepareUserFolder,
	removePackedTarball,
	removeUserFolder,
	setUpOwner,
	startN8nServer,
} from '../../test/e2e/harness';
import { type Sandbox, startSandbox } from '../../test/sandbox';
import { DEMO_N8N_VERSION, step } from '../demo-support';
import { type NpmStandIn, startNpmStandIn } from './npm-stand-in';
import { reportsWorkflow, sendWorkflow } from './workflows';

export interface Stage {
	url: string;
	sandbox: Sandbox;
	npm: NpmStandIn;
	server: N8nServer;
	folder: UserFolder;
}

/** Everything started so far, stopped in reverse order; safe to call twice. */
export class Teardown {
	private readonly steps: Array<() => Promise<void> | void> = [];

	add(stop: () => Promise<void> | void): void {
		this.steps.push(stop);
	}

	async run(): Promise<void> {
		while (this.steps.length > 0) {
			const stop = this.steps.pop();
			try {
				await stop?.();
			} catch (error) {
				console.error('while stopping:', error);
			}
		}
	}
}

export async function setUpStage(teardown: Teardown): Promise<Stage> {
	// Two seconds from the send to the delivery report, as SMSLeopard reports a few seconds later.
	const sandbox = await startSandbox({ smsDeliveryMs: 2000 });
	teardown.add(() => sandbox.stop());
	step(`sandbox listening: chat ${sandbox.chatUrl}, contacts ${sandbox.contactsUrl}`);

	step(`making sure n8n ${DEMO_N8N_VERSION} is installed (cached after the first time)`);
	ensureN8n(DEMO_N8N_VERSION);
	step('building and packing the package (npm pack)');
	const tarball = packPackage();
	teardown.add(() => removePackedTarball(tarball));
	const npm = await startNpmStandIn(tarball);
	teardown.add(() => npm.stop());
	step(`npm stand-in for registry.npmjs.org serving ${npm.spec} (this package is not on npm yet)`);

	const folder = await prepareUserFolder({ n8nVersion: DEMO_N8N_VERSION });
	teardown.add(() => removeUserFolder(folder));
	const port = await freePort();
	const url = `http://127.0.0.1:${port}`;
	step('importing the two demo workflows (Delivery reports, Send an SMS)');
	await importWorkflows(folder, [reportsWorkflow(), sendWorkflow(url)]);

	step(`starting n8n ${DEMO_N8N_VERSION} on ${url}, without the package`);
	const server = await startN8nServer(folder, {
		port,
		// The Production URL the trigger shows is the one Send SMS was given (else localhost:port).
		env: { ...npm.npmEnv, WEBHOOK_URL: `${url}/` },
	});
	teardown.add(() => server.stop());
	await setUpOwner(server.url);
	return { url, sandbox, npm, server, folder };
}
