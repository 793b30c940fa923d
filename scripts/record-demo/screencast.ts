/**
 * A video of one page: Chromium's own screencast (CDP Page.startScreencast, JPEG frames as the page
 * repaints) encoded by Debian's ffmpeg into H.264 MP4. Playwright's recordVideo does the same, but
 * only with the ffmpeg build it downloads from its CDN, which this project does not use.
 *
 * Chromium sends a frame only when the picture changes, so each frame is repeated until the next
 * one arrives: the video runs at wall-clock speed at a constant frame rate.
 */
import { type ChildProcess, spawn } from 'child_process';
import { mkdirSync, rmSync } from 'fs';
import { dirname } from 'path';
import type { CDPSession, Page } from 'playwright-core';

export const VIDEO_FPS = 15;

export interface Screencast {
	/** Seconds of video written so far. */
	seconds(): number;
	/**
	 * Leaves the time until resume() out of the video (a cut): n8n loading a page on a busy machine
	 * is not what the video is about. It starts paused, so the first picture is a drawn page.
	 */
	pause(): void;
	/** Goes on recording from the next picture Chromium paints (not one from the cut). */
	resume(): Promise<void>;
	/** Ends the screencast and waits for ffmpeg to finish the file (bounded). */
	stop(): Promise<void>;
}

function startFfmpeg(file: string): ChildProcess {
	mkdirSync(dirname(file), { recursive: true });
	return spawn(
		'ffmpeg',
		[
			'-loglevel',
			'error',
			'-f',
			'image2pipe',
			'-c:v',
			'mjpeg',
			'-framerate',
			String(VIDEO_FPS),
			'-i',
			'pipe:0',
			'-c:v',
			'libx264',
			// Light on the shared 2-core machine; screen content compresses well anyway.
			'-preset',
			'veryfast',
			'-crf',
			'26',
			'-pix_fmt',
			'yuv420p',
			'-vf',
			'scale=trunc(iw/2)*2:trunc(ih/2)*2',
			'-movflags',
			'+faststart',
			'-y',
			file,
		],
		// Its own process group: Ctrl-C in the terminal must not end it before stop() finishes the
		// file. If this process dies, ffmpeg sees the end of its input and exits by itself.
		{ stdio: ['pipe', 'ignore', 'pipe'], detached: true },
	);
}

export async function startScreencast(page: Page, file: string): Promise<Screencast> {
	const ffmpeg = startFfmpeg(file);
	let ffmpegErrors = '';
	ffmpeg.stderr?.on('data', (chunk: Buffer) => (ffmpegErrors += chunk.toString()));
	const exited = new Promise<number | null>((resolve) => ffmpeg.once('exit', resolve));
	const input = ffmpeg.stdin;
	if (!input) throw new Error('ffmpeg has no standard input');
	input.on('error', () => undefined); // ffmpeg gone: exit code and stderr say why.

	let last: Buffer | undefined;
	let startedAt = 0;
	let written = 0;
	// Writes go one after another, each waiting for ffmpeg to take the previous (back-pressure).
	let writing = Promise.resolve();
	const writeFrame = (frame: Buffer, times: number) => {
		for (let i = 0; i < times; i++) {
			writing = writing.then(
				() =>
					new Promise<void>((resolve) => {
						if (input.destroyed || input.write(frame)) return resolve();
						// Full: wait until ffmpeg takes it, or is gone (a closed pipe never drains).
						const done = () => {
							input.off('drain', done);
							input.off('close', done);
							resolve();
						};
						input.on('drain', done);
						input.on('close', done);
					}),
			);
		}
		written += times;
	};
	let paused = true;
	/** Called with each new frame's time while resume() waits for a fresh picture. */
	let onFrame: ((atSeconds: number) => void) | undefined;
	/** Repeats the last frame up to `atSeconds` (wall clock). */
	const catchUp = (atSeconds: number) => {
		if (!last || paused) return;
		const due = Math.floor((atSeconds - startedAt) * VIDEO_FPS) - written;
		if (due > 0) writeFrame(last, due);
	};

	const session: CDPSession = await page.context().newCDPSession(page);
	session.on('Page.screencastFrame', (event) => {
		void session.send('Page.screencastFrameAck', { sessionId: event.sessionId }).catch(() => {
			// The page is closing.
		});
		const at = event.metadata.timestamp ?? Date.now() / 1000;
		catchUp(at);
		last = Buffer.from(event.data, 'base64');
		onFrame?.(at);
	});
	const viewport = page.viewportSize() ?? { width: 1440, height: 900 };
	await session.send('Page.startScreencast', {
		format: 'jpeg',
		quality: 85,
		maxWidth: viewport.width,
		maxHeight: viewport.height,
	});

	let stopped = false;
	return {
		seconds: () => written / VIDEO_FPS,
		pause: () => {
			catchUp(Date.now() / 1000);
			paused = true;
		},
		resume: async () => {
			if (!paused) return;
			// Frames arrive a little late: wait (at most 1 s) for one painted after this moment, so
			// the cut does not show a picture from the middle of the wait.
			const asked = Date.now() / 1000;
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, 1000);
				onFrame = (at) => {
					if (at < asked) return;
					clearTimeout(timer);
					resolve();
				};
			});
			onFrame = undefined;
			// The video's clock goes on from where it stopped: the time in between is cut.
			startedAt = Date.now() / 1000 - written / VIDEO_FPS;
			paused = false;
		},
		stop: async () => {
			if (stopped) return;
			stopped = true;
			await session.send('Page.stopScreencast').catch(() => undefined);
			await session.detach().catch(() => undefined);
			// The last picture stays on screen until now, plus one frame so it is shown at all.
			catchUp(Date.now() / 1000);
			if (last && !paused) writeFrame(last, 1);
			const timer = setTimeout(() => ffmpeg.kill('SIGKILL'), 60_000);
			await writing;
			input.end();
			const code = await exited;
			clearTimeout(timer);
			// Stopped before the first picture (Ctrl-C early on): there is no video to keep.
			if (written === 0) return rmSync(file, { force: true });
			if (code !== 0) throw new Error(`ffmpeg failed (exit ${code}): ${ffmpegErrors.trim()}`);
		},
	};
}
