/**
 * Driving the n8n editor in headless Chromium (Debian's chromium package, no browser download):
 * what the browser test (`npm run test:editor`) and the README screenshots (`npm run screenshots`)
 * share, so each step is written once. Every wait is for something on screen, bounded.
 */
import { mkdirSync } from 'fs';
import { dirname } from 'path';
import { type Browser, type Locator, type Page, chromium } from 'playwright-core';

import { signIn } from '../e2e/harness';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Longest wait for one thing to appear; n8n's editor is slow on a loaded 2-core machine. */
export const STEP_TIMEOUT_MS = 45_000;
/** Longest wait for Execute step: n8n runs the node's parents too (a Code node in its runner). */
export const RUN_TIMEOUT_MS = 120_000;

/**
 * `handleSIGINT: false` for a caller that closes the browser itself on Ctrl-C (npm run record:demo):
 * Playwright's own handler closes it and then exits the process, before n8n could be stopped.
 */
export async function launchBrowser(options: { handleSIGINT?: boolean } = {}): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		...options,
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
}

/** A page signed in as the demo owner (the session cookie of the REST login). */
export async function signedInPage(browser: Browser, url: string): Promise<Page> {
	const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
	page.setDefaultTimeout(STEP_TIMEOUT_MS);
	const cookie = await signIn(url);
	const equals = cookie.indexOf('=');
	await page
		.context()
		.addCookies([{ name: cookie.slice(0, equals), value: cookie.slice(equals + 1), url }]);
	return page;
}

export function canvasNode(page: Page, name: string): Locator {
	return page.locator('[data-test-id="canvas-node"]', { hasText: name }).first();
}

/** Opens a workflow and waits until its nodes are drawn. */
export async function openWorkflow(
	page: Page,
	url: string,
	workflowId: string,
	firstNode: string,
): Promise<void> {
	await page.goto(`${url}/workflow/${workflowId}`);
	// The first drawing of a workflow is the slowest step on a loaded machine.
	await canvasNode(page, firstNode).waitFor({ state: 'visible', timeout: 3 * STEP_TIMEOUT_MS });
	// First-run pop-ups, when there are any.
	await page.keyboard.press('Escape');
}

/** The node details view (NDV) of a node on the canvas, once its parameters are shown. */
export async function openNode(page: Page, name: string): Promise<Locator> {
	// A node left open (by a step that failed) would take the double click.
	if (await page.locator('[data-test-id="ndv"]').isVisible()) await closeNode(page);
	const ndv = page.locator('[data-test-id="ndv"]');
	const parameters = ndv.locator('[data-test-id="node-parameters"]').first();
	// On a loaded machine the first double click after a workflow is drawn can only select the node
	// (a fresh-clone CI run waited 45 s for a panel that never opened): click again, at most 3 times,
	// unless the panel is already on its way.
	for (let attempt = 1; ; attempt++) {
		if (!(await ndv.isVisible())) await canvasNode(page, name).dblclick({ force: true });
		const last = attempt === 3;
		const opened = await parameters
			.waitFor({ state: 'visible', ...(last ? {} : { timeout: 10_000 }) })
			.then(() => true)
			.catch((error: unknown) => {
				if (last) throw error;
				return false;
			});
		if (opened) return ndv;
	}
}

export async function closeNode(page: Page): Promise<void> {
	await page.locator('[data-test-id="ndv-close-button"]').click();
	await page.locator('[data-test-id="ndv"]').waitFor({ state: 'hidden' });
}

/** A template's value field as the node reads it (`body_1`); its id may carry the template's tag. */
const MAPPED_FIELD =
	/^(header|body)_\d+$|^button_\d+_(url|payload)$|^auth_code$|^document_file_name$/;

/** A field id without its template tag (`body_1_t1a2b3c4d` is `body_1`). */
export const untagged = (id: string): string => id.replace(/_t[0-9a-f]{8}$/, '');

/** Where an editor parameter is: n8n marks each with data-test-id="parameter-input-<name>". */
export function parameter(ndv: Locator, name: string): Locator {
	if (MAPPED_FIELD.test(name)) {
		return ndv
			.locator(
				`[data-test-id^="parameter-input-${name}_t"], [data-test-id="parameter-input-${name}"]`,
			)
			.first();
	}
	return ndv.locator(`[data-test-id="parameter-input-${name}"]`).first();
}

export async function screenshot(page: Page, path: string): Promise<void> {
	mkdirSync(dirname(path), { recursive: true });
	await page.screenshot({ path });
}

/** Execute step on the open node (n8n runs its parents too), until the run is marked a success. */
export async function executeStep(ndv: Locator): Promise<void> {
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	await ndv
		.locator('[data-test-id="node-run-status-success"]')
		.waitFor({ timeout: RUN_TIMEOUT_MS });
}

/** Shows the output as a table and waits for each of these column headings. */
export async function outputColumns(ndv: Locator, columns: string[]): Promise<void> {
	const output = ndv.locator('[data-test-id="output-panel"]');
	await output.locator('[data-test-id="radio-button-table"]').click();
	for (const column of columns) {
		await output
			.locator('th', { hasText: new RegExp(`^\\s*${column}\\s*$`) })
			.first()
			.waitFor({ state: 'visible' });
	}
}
