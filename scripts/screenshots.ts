/**
 * `npm run screenshots`: starts the editor as `npm start` does, signs in with headless Chromium
 * (Debian's chromium package: apt-get install chromium), and saves what the README shows into docs/:
 * the demo workflow, and Send Template with the fields of its chosen template.
 */
import { chromium, type Page } from 'playwright-core';
import { signIn } from '../test/e2e/harness';
import { startEditor } from './editor';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function signInBrowser(page: Page, url: string): Promise<void> {
	const cookie = await signIn(url);
	const equals = cookie.indexOf('=');
	await page
		.context()
		.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url }]);
}

async function openNode(page: Page, name: string): Promise<void> {
	const node = page.locator('[data-test-id="canvas-node"]', { hasText: name }).first();
	await node.dblclick({ force: true });
	await page.waitForTimeout(2500);
}

async function main(): Promise<void> {
	const editor = await startEditor(Number(process.env.N8N_PORT ?? 5678));
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
		],
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await signInBrowser(page, editor.url);
		await page.goto(`${editor.url}/workflow/${editor.workflowId}`);
		await page.waitForTimeout(5000);
		// Dismiss first-run popups when there are any.
		await page.keyboard.press('Escape');
		await page.screenshot({ path: 'docs/demo-workflow.png' });
		await openNode(page, 'Send Tracking Link');
		await page.screenshot({ path: 'docs/send-template-fields.png' });
		await page.keyboard.press('Escape');
		await page.waitForTimeout(500);
		await openNode(page, 'Send Invoice');
		await page.screenshot({ path: 'docs/send-template-document.png' });
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
