/**
 * `npm run screenshots`: starts the editor as `npm start` does, signs in with headless Chromium
 * (Debian's chromium package: apt-get install chromium), and saves what the README shows into docs/:
 * the demo workflow, and Send Template with the fields of its chosen template. The steps are the
 * browser test's (test/editor/browser.ts), which takes the same pictures on every run.
 */
import {
	closeNode,
	launchBrowser,
	openNode,
	openWorkflow,
	screenshot,
	signedInPage,
} from '../test/editor/browser';
import { startEditor } from './editor';

async function main(): Promise<void> {
	const editor = await startEditor(Number(process.env.N8N_PORT ?? 5678));
	const browser = await launchBrowser();
	try {
		const page = await signedInPage(browser, editor.server.url);
		await openWorkflow(page, editor.server.url, editor.workflowId, 'Send Tracking Link');
		await screenshot(page, 'docs/demo-workflow.png');
		await openNode(page, 'Send Tracking Link');
		await screenshot(page, 'docs/send-template-fields.png');
		await closeNode(page);
		await openNode(page, 'Send Invoice');
		await screenshot(page, 'docs/send-template-document.png');
		console.log(
			'saved docs/demo-workflow.png, docs/send-template-fields.png, docs/send-template-document.png',
		);
	} finally {
		await browser.close();
		await editor.stop();
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
