/**
 * The marketer's flow in the real editor: n8n 2.8.4 with the packed package, the sandbox behind the
 * credential, headless Chromium. Each test asserts what is on screen and saves a screenshot to
 * test-artifacts/editor/; the README's pictures (docs/) are taken from the same steps.
 */
import type { Browser, Page } from 'playwright-core';

import { freePort } from '../e2e/harness';
import { type Editor, startEditor } from '../../scripts/editor';
import {
	closeNode,
	launchBrowser,
	openNode,
	openWorkflow,
	parameter,
	screenshot,
	signedInPage,
} from './browser';

const ARTIFACTS = 'test-artifacts/editor';

let editor: Editor;
let browser: Browser;
let page: Page;

beforeAll(async () => {
	editor = await startEditor({ n8n: await freePort(), chat: 0, contacts: 0 });
	browser = await launchBrowser();
	page = await signedInPage(browser, editor.server.url);
}, 300_000);

afterAll(async () => {
	await browser?.close();
	await editor?.stop();
});

test('signed in, the demo workflow shows its SMSLeopard nodes', async () => {
	await openWorkflow(page, editor.server.url, editor.workflowId, 'Send Tracking Link');
	await screenshot(page, `${ARTIFACTS}/01-demo-workflow.png`);
	await screenshot(page, 'docs/demo-workflow.png');
	for (const name of ['Send Tracking Link', 'Send Invoice']) {
		await expect(
			page.locator('[data-test-id="canvas-node"]', { hasText: name }).count(),
		).resolves.toBeGreaterThan(0);
	}
});

test('Send Template shows the sender, the template and the fields of that template', async () => {
	const ndv = await openNode(page, 'Send Tracking Link');
	expect(
		await parameter(ndv, 'senderNumber').locator('[data-test-id="rlc-input"]').first().inputValue(),
	).toContain('+254700000001');
	expect(
		await parameter(ndv, 'template').locator('[data-test-id="rlc-input"]').first().inputValue(),
	).toContain('track_parcel');
	// The fields of track_parcel: its body variable and its URL button, labelled with the words
	// the marketer sees in WhatsApp Manager.
	await ndv.getByText('Body {{1}}: "Your parcel {{1}} is on its way."').waitFor();
	await ndv.getByText('Button "Track": {{1}} of …/track/{{1}}').waitFor();
	await parameter(ndv, 'body_1').waitFor({ state: 'visible' });
	await parameter(ndv, 'button_0_url').waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/02-send-template-fields.png`);
	await screenshot(page, 'docs/send-template-fields.png');
});

test('the Sender Number list loads from the sandbox', async () => {
	const ndv = page.locator('[data-test-id="ndv"]');
	await parameter(ndv, 'senderNumber').locator('[data-test-id="rlc-input"]').click();
	await page
		.getByText(/\(phone_number_id \d+/)
		.first()
		.waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/03-sender-number-list.png`);
	await page.keyboard.press('Escape');
});

test('the Template list loads from the sandbox', async () => {
	const ndv = page.locator('[data-test-id="ndv"]');
	await parameter(ndv, 'template').locator('[data-test-id="rlc-input"]').click();
	await page.getByText('track_parcel (en_US, UTILITY)').last().waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/04-template-list.png`);
	await page.keyboard.press('Escape');
	await closeNode(page);
});

test('a document-header template asks for its media where the fields are', async () => {
	const ndv = await openNode(page, 'Send Invoice');
	await parameter(ndv, 'headerMedia').waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/05-send-template-document.png`);
	await screenshot(page, 'docs/send-template-document.png');
	await closeNode(page);
});

test('the node panel finds SMSLeopard', async () => {
	await page.locator('[data-test-id="node-creator-plus-button"]').click();
	const creator = page.locator('[data-test-id="node-creator"]');
	await creator.locator('input').first().fill('SMSLeopard');
	await creator.getByText('SMSLeopard', { exact: true }).first().waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/06-node-panel-search.png`);
	await page.keyboard.press('Escape');
});

test('the Groups picker lists groups in natural order: Group 2 before Group 10', async () => {
	const ndv = await openNode(page, 'Create Contact');
	await parameter(ndv, 'groupIds').click();
	const headlines = page.locator('.el-select-dropdown__item:visible .option-headline');
	await headlines
		.filter({ hasText: /^Group 10 \(/ })
		.first()
		.waitFor({ state: 'visible' });
	const names = await headlines.allInnerTexts();
	const group2 = names.findIndex((name) => name.startsWith('Group 2 ('));
	const group10 = names.findIndex((name) => name.startsWith('Group 10 ('));
	expect(group2).toBeGreaterThanOrEqual(0);
	expect(group2).toBeLessThan(group10);
	await screenshot(page, `${ARTIFACTS}/07-groups-picker.png`);
	await page.keyboard.press('Escape');
	await closeNode(page);
});

test('Execute step runs Send Tracking Link and the output shows the message columns', async () => {
	const ndv = await openNode(page, 'Send Tracking Link');
	await ndv.locator('[data-test-id="node-execute-button"]').first().click();
	await ndv.locator('[data-test-id="node-run-status-success"]').waitFor({ timeout: 60_000 });
	const output = ndv.locator('[data-test-id="output-panel"]');
	await output.locator('[data-test-id="radio-button-table"]').click();
	// One flat row per message (issue 13.6): the columns a marketer reads, no nested objects.
	for (const column of ['recipient', 'number', 'messageId', 'status', 'cost', 'templateName']) {
		await output
			.locator('th', { hasText: new RegExp(`^\\s*${column}\\s*$`) })
			.first()
			.waitFor({ state: 'visible' });
	}
	await screenshot(page, `${ARTIFACTS}/08-output.png`);
});

test('the credential dialog tests the connection and says it works', async () => {
	const ndv = page.locator('[data-test-id="ndv"]');
	await ndv.locator('[data-test-id="credential-edit-button"]').click();
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	await modal
		.locator('[data-test-id="credentials-config-container-test-success"]')
		.waitFor({ state: 'visible' });
	await screenshot(page, `${ARTIFACTS}/09-credential-tested.png`);
});

test('a wrong secret: the dialog says the test failed and shows no secret', async () => {
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	const wrongSecret = 'wrong-secret-for-the-browser-test';
	await modal.locator('[data-test-id="apiSecret"] input').first().fill(wrongSecret);
	await modal.locator('[data-test-id="credential-save-button"]').click();
	await modal.getByText(/Couldn.t connect with these settings/).waitFor({ state: 'visible' });
	// n8n keeps our test's message behind "More details": open it, as a user would.
	await modal.getByText('More details').click();
	// The credential test's own words (methods/credentialTest.ts), what the marketer reads.
	await modal.getByText('The API key or secret was refused by SMSLeopard').waitFor();
	await screenshot(page, `${ARTIFACTS}/10-credential-wrong-secret.png`);
	const shown = await modal.innerText();
	expect(shown).not.toContain(wrongSecret);
	expect(shown).not.toContain(String(editor.sandbox.credentialData.apiSecret));
	expect(shown).not.toContain(String(editor.sandbox.credentialData.apiKey));
});

test('the Channel help names the chat path without a double slash', async () => {
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	const channel = modal.locator('[data-test-id="channel"]').first();
	await channel.scrollIntoViewIfNeeded();
	await channel.getByText('Channel Path Segment').hover();
	await channel.locator('svg').first().hover();
	const help = page.getByText(/The channel part of the chat paths/).last();
	await help.waitFor({ state: 'visible', timeout: 10_000 });
	await screenshot(page, `${ARTIFACTS}/11-credential-channel-help.png`);
	const text = await help.innerText();
	expect(text).toContain('/v1/whatsapp/send');
	expect(text).not.toContain('/v1//send');
});
