/**
 * `npm run record:demo`: the short video n8n's reviewers ask community-node packages for. In n8n
 * 2.8.4, against the local sandbox (in-process, as `npm start` runs it): install the package through
 * Settings > Community Nodes, create and test the credential, send an SMS, and see the SMSLeopard
 * Trigger's execution for its delivery report. Headless Chromium (Debian's chromium) driven by
 * playwright-core, filmed with Chromium's screencast and Debian's ffmpeg. Writes
 * test-artifacts/demo-video/smsleopard-demo.mp4 and a key frame per step. Ctrl-C, a failure or the
 * overall time limit stop n8n, the sandbox, the npm stand-in and the browser.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, rmSync } from 'fs';
import * as path from 'path';
import type { Page } from 'playwright-core';

import { launchBrowser, screenshot, signedInPage } from '../test/editor/browser';
import { step } from './demo-support';
import { captions } from './record-demo/captions';
import { startScreencast } from './record-demo/screencast';
import { Teardown, setUpStage } from './record-demo/stage';
import {
	type Scene,
	installPackage,
	publishTrigger,
	sendSms,
	showReport,
	testCredential,
} from './record-demo/steps';

const OUTPUT = process.env.DEMO_VIDEO_DIR ?? 'test-artifacts/demo-video';
const VIDEO = path.join(OUTPUT, 'smsleopard-demo.mp4');
/** Everything, n8n's first install excepted (minutes, done before by npm run record:demo's setup). */
const DEADLINE_MS = 15 * 60_000;

function videoSeconds(file: string): string {
	try {
		return execFileSync(
			'ffprobe',
			['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
			{ encoding: 'utf8' },
		).trim();
	} catch {
		return 'unknown';
	}
}

/** Set once Ctrl-C, a signal or the time limit is stopping everything. */
let aborting = false;

async function main(): Promise<void> {
	const teardown = new Teardown();
	const abort = (why: string, exitCode: number) => {
		if (aborting) return;
		aborting = true;
		console.error(`\n${why}: stopping the recording, the browser, n8n and the sandbox`);
		void teardown.run().finally(() => {
			console.error('stopped.');
			process.exit(exitCode);
		});
	};
	// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx),
	// and a second signal without a handler would kill it before n8n is stopped.
	process.on('SIGINT', () => abort('interrupted', 130));
	process.on('SIGTERM', () => abort('terminated', 143));
	const deadline = setTimeout(
		() => abort(`not done within ${DEADLINE_MS / 60_000} minutes`, 1),
		DEADLINE_MS,
	);

	let page: Page | undefined;
	try {
		rmSync(OUTPUT, { recursive: true, force: true });
		mkdirSync(OUTPUT, { recursive: true });
		const stage = await setUpStage(teardown);
		const browser = await launchBrowser({ handleSIGINT: false });
		teardown.add(() => browser.close());
		page = await signedInPage(browser, stage.url);
		step(`recording ${VIDEO}`);
		const video = await startScreencast(page, VIDEO);
		teardown.add(() => video.stop());
		const scene: Scene = {
			page,
			url: stage.url,
			sandbox: stage.sandbox,
			captions: captions(page),
			video,
			folder: OUTPUT,
			packageSpec: stage.npm.spec,
		};
		const started = Date.now();
		const timings: string[] = [];
		for (const [name, run] of [
			['install through Settings > Community Nodes', installPackage],
			['publish the Delivery reports workflow', publishTrigger],
			['create and test the credential', testCredential],
			['send an SMS', sendSms],
			["open the trigger's execution for the delivery report", showReport],
		] as const) {
			step(name);
			const stepStarted = Date.now();
			const videoBefore = video.seconds();
			await run(scene);
			timings.push(
				`  ${name}: ${((Date.now() - stepStarted) / 1000).toFixed(0)} s, ${(video.seconds() - videoBefore).toFixed(0)} s of video`,
			);
		}
		await video.stop();
		console.log(
			`\nRecorded in ${((Date.now() - started) / 1000).toFixed(0)} s: ${VIDEO} (${videoSeconds(VIDEO)} s of video)` +
				`\n${timings.join('\n')}` +
				`\nKey frames: ${OUTPUT}/01-installed.png … 05-report-received.png` +
				`\nnpm requests the stand-in answered: ${stage.npm.requests.filter((line) => !line.startsWith('CONNECT')).length}`,
		);
	} catch (error) {
		if (page) await screenshot(page, path.join(OUTPUT, 'failed.png')).catch(() => undefined);
		throw error;
	} finally {
		clearTimeout(deadline);
		if (!aborting) await teardown.run();
	}
}

main().catch((error: unknown) => {
	// While aborting, the step in progress fails because its browser is gone: not news.
	if (!aborting) console.error(error);
	process.exitCode = 1;
});
