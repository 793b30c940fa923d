/**
 * What the reviewers' video shows, step by step, in the n8n 2.8.4 editor: install the package in
 * Settings > Community Nodes, publish the workflow with the SMSLeopard Trigger, create and test the
 * credential, send an SMS, and open the execution the delivery report started. Each step waits for
 * what proves it on screen (bounded by the page's default timeout) and saves a key frame.
 */
import type { Page } from 'playwright-core';

import {
	RUN_TIMEOUT_MS,
	closeNode,
	executeStep,
	openNode,
	openWorkflow,
	outputColumns,
	screenshot,
} from '../../test/editor/browser';
import type { Sandbox } from '../../test/sandbox';
import type { Captions } from './captions';
import type { Screencast } from './screencast';
import {
	RECIPIENT,
	REPORTS_WORKFLOW_ID,
	SEND_NAME,
	SEND_WORKFLOW_ID,
	TRIGGER_NAME,
} from './workflows';

export interface Scene {
	page: Page;
	url: string;
	sandbox: Sandbox;
	captions: Captions;
	video: Screencast;
	/** Where the key frames go. */
	folder: string;
	packageSpec: string;
}

/** Polls `condition` every 250 ms, for at most `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

/** Time for a viewer to read what just appeared. */
async function hold(page: Page, ms = 2500): Promise<void> {
	await page.waitForTimeout(ms);
}

/** Typed key by key, so the video shows what goes into the field. */
const TYPING_DELAY_MS = 60;

/** Waits that are n8n drawing a page (long on a busy machine) are cut from the video. */
async function offCamera<T>(scene: Scene, wait: () => Promise<T>): Promise<T> {
	scene.video.pause();
	try {
		return await wait();
	} finally {
		await scene.video.resume();
	}
}

export async function installPackage(scene: Scene): Promise<void> {
	const { page, url, captions } = scene;
	const [name, version] = scene.packageSpec.split('@');
	// The video starts paused (screencast.ts): it begins on the drawn page with its title.
	await page.goto(`${url}/settings/community-nodes`);
	await page.getByRole('button', { name: 'Install a community node' }).waitFor();
	await captions.show(
		`${name} ${version} on n8n 2.8.4: install, credential test, send, delivery report`,
		'Recorded by npm run record:demo against a local SMSLeopard sandbox: no real messages are sent.',
	);
	await scene.video.resume();
	await hold(page, 3500);
	await captions.show(
		'Step 1 of 4: install through Settings > Community Nodes',
		`n8n runs npm view / pack / install as usual. ${name} is not on npm yet: the recording's ` +
			'local stand-in answers npm for this one package with the tarball npm pack made from this checkout.',
	);
	await page.getByRole('button', { name: 'Install a community node' }).click();
	const modal = page.locator('[data-test-id="communityPackageInstall-modal"]');
	await modal
		.locator('[data-test-id="package-name-input"]')
		.pressSequentially(name, { delay: TYPING_DELAY_MS });
	await modal.locator('[data-test-id="user-agreement-checkbox"]').click();
	await hold(page, 1000);
	await modal.locator('[data-test-id="install-community-package-button"]').click();
	await page
		.locator('[data-test-id="community-package-card"]', { hasText: name })
		.waitFor({ timeout: RUN_TIMEOUT_MS });
	await page.getByText('SMSLeopard Trigger', { exact: false }).first().waitFor();
	await hold(page);
	await screenshot(page, `${scene.folder}/01-installed.png`);
}

export async function publishTrigger(scene: Scene): Promise<void> {
	const { page, url, captions } = scene;
	await offCamera(scene, async () => {
		await openWorkflow(page, url, REPORTS_WORKFLOW_ID, TRIGGER_NAME);
		await captions.show(
			'Before sending: publish the workflow with the SMSLeopard Trigger',
			'Its Production URL is where SMSLeopard posts delivery reports; Send SMS points there.',
		);
	});
	const ndv = await openNode(page, TRIGGER_NAME);
	await ndv.getByText('Webhook URLs', { exact: false }).first().click();
	await ndv.locator('[data-test-id="radio-button-production"]').click();
	await ndv.getByText('/smsleopard', { exact: false }).first().waitFor();
	await hold(page, 3000);
	await closeNode(page);
	await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
	const publish = page.locator('[data-test-id="workflowPublish-modal"]');
	await hold(page, 800);
	await publish.locator('[data-test-id="workflow-publish-button"]').click();
	await page.getByRole('button', { name: 'Got it' }).click();
	await page.locator('[data-test-id="workflow-active-version-indicator"]').waitFor();
	// n8n's Production Checklist opens beside the Published button; it is not part of the demo. A
	// click on an empty part of the canvas closes it (Escape does not).
	await page.mouse.click(300, 650);
	await page.getByText('Production Checklist').waitFor({ state: 'hidden' });
	await hold(page, 1500);
	await screenshot(page, `${scene.folder}/02-trigger-published.png`);
}

export async function testCredential(scene: Scene): Promise<void> {
	const { page, url, captions, sandbox } = scene;
	await offCamera(scene, async () => {
		await openWorkflow(page, url, SEND_WORKFLOW_ID, SEND_NAME);
		await captions.show(
			'Step 2 of 4: create the SMSLeopard credential and test it',
			'API key and secret of the sandbox, and its URLs in place of the real API. Save runs the ' +
				"credential's test (n8n 2.8.4 has no Test button before that); Retry runs it again.",
		);
	});
	const ndv = await openNode(page, SEND_NAME);
	await ndv.locator('[data-test-id="node-credentials-select"]').click();
	await page.locator('[data-test-id="node-credentials-select-item-new"]').click();
	const modal = page.locator('[data-test-id="editCredential-modal"]');
	const field = (name: string) =>
		modal.locator(`[data-test-id="parameter-input-${name}"] input`).first();
	const data = sandbox.credentialData;
	// Filled as pasted: typing 80 characters key by key is slow to watch (and on a busy machine).
	for (const name of ['apiKey', 'apiSecret', 'chatUrl', 'contactsUrl'] as const) {
		await field(name).fill(data[name]);
		await hold(page, 400);
	}
	await hold(page, 800);
	await modal.locator('[data-test-id="credential-save-button"]').click();
	const tested = modal.locator('[data-test-id="credentials-config-container-test-success"]');
	await tested.waitFor({ state: 'visible' });
	await hold(page, 2000);
	// The test button n8n shows once a credential is saved: each press asks the sandbox again.
	const requestsBefore = sandbox.requests.length;
	await tested.getByRole('button', { name: 'Retry' }).click();
	await until(
		() => sandbox.requests.length > requestsBefore,
		'the credential test reached the sandbox',
	);
	await tested.getByRole('button', { name: 'Retry', exact: true }).waitFor();
	await hold(page);
	await screenshot(page, `${scene.folder}/03-credential-tested.png`);
	await modal.locator('.el-dialog__headerbtn').first().click();
	await modal.waitFor({ state: 'hidden' });
}

export async function sendSms(scene: Scene): Promise<void> {
	const { page, captions } = scene;
	const ndv = page.locator('[data-test-id="ndv"]');
	await captions.show(
		'Step 3 of 4: send an SMS with the SMSLeopard node',
		`Execute step on Send SMS (to ${RECIPIENT}); its Delivery Report URL is the trigger's Production URL.`,
	);
	await hold(page, 2000);
	await executeStep(ndv);
	await outputColumns(ndv, ['recipient', 'messageId', 'status', 'parts']);
	await hold(page, 3000);
	await screenshot(page, `${scene.folder}/04-sms-sent.png`);
	await closeNode(page);
}

export async function showReport(scene: Scene): Promise<void> {
	const { page, url, captions, sandbox } = scene;
	await offCamera(scene, async () => {
		// The sandbox posts the final report 2 s after the send (smsDeliveryMs); n8n must take it.
		await until(
			() => sandbox.callbacks.some((post) => post.status === 200 && post.body.includes('DELIVRD')),
			"n8n accepted the sandbox's delivery report",
		);
		await openWorkflow(page, url, REPORTS_WORKFLOW_ID, TRIGGER_NAME);
		await captions.show(
			'Step 4 of 4: the SMSLeopard Trigger receives the delivery report',
			"The sandbox, standing in for SMSLeopard, posted the message's report to the Production " +
				'URL: the published workflow ran. Its execution shows the same messageId, delivered.',
		);
	});
	await hold(page, 1500);
	await page.locator('[data-test-id="radio-button-executions"]').click();
	// n8n shows a past execution in an iframe of its own.
	const preview = page.frameLocator('iframe').first();
	const trigger = preview.locator('[data-test-id="canvas-node"]', { hasText: TRIGGER_NAME });
	await offCamera(scene, async () => {
		await page.locator('[data-test-id^="execution-details-"]').first().click();
		await trigger.waitFor();
	});
	await hold(page, 1500);
	await trigger.dblclick();
	const ndv = preview.locator('[data-test-id="ndv"]');
	await outputColumns(ndv, ['event', 'messageId', 'status', 'outcome', 'number']);
	await ndv.getByText('delivered', { exact: true }).first().waitFor();
	// The report is the one of the message step 3 sent.
	const sent = sandbox.state.smsMessages.at(-1);
	if (!sent) throw new Error('the sandbox has no SMS: step 3 sent nothing');
	await ndv.getByText(sent.id, { exact: true }).first().waitFor();
	await hold(page, 4000);
	await screenshot(page, `${scene.folder}/05-report-received.png`);
}
