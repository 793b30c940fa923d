/**
 * `npm run bench -- pacingWake`: the pacer's real rate under Max Requests per Second 245 (a campaign
 * worker's share of 500) on Node's real timers, in a process that also answers other work the way a
 * queue-mode worker does (20 requests in flight to a loopback server answering in 20 ms, each answer
 * costing BENCH_WAKE_BURN_MS of CPU, default 0.1), with and without the wait in place for the last
 * fraction of a millisecond (client/http/precise-clock.ts, `waitInPlace`). Each run lasts 4 s; the figures
 * are the median (min–max) of BENCH_REPEATS runs (default 5), and the time the process was held per
 * second by the waits in place.
 *
 * Why a probe and not a test: the rate depends on the machine's timers and load, so it is measured
 * and printed, never asserted (the virtual-clock test in test/client/precise-clock.test.ts asserts
 * the rule).
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

import { Pacer } from '../nodes/SmsLeopard/client/http/pacing';
import { preciseNow, waitInPlace } from '../nodes/SmsLeopard/client/http/precise-clock';
import { repeatsFromEnv } from './measure';
import { compare, showSpread, spread } from './spread';

const RATE = 245;
const RUN_MS = 4000;
const IN_FLIGHT = 20;
const burnMs = Number(process.env.BENCH_WAKE_BURN_MS ?? 0.1);

const sleep = async (ms: number) => await new Promise<void>((resolve) => setTimeout(resolve, ms));

function burn(ms: number): void {
	const end = preciseNow() + ms;
	while (preciseNow() < end);
}

/** Keeps IN_FLIGHT requests going to `port` until `stopped()`, burning CPU on each answer. */
async function sideLoad(port: number, stopped: () => boolean): Promise<void> {
	const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
	const one = async () =>
		await new Promise<void>((resolve, reject) => {
			http
				.get({ port, agent, path: '/', host: '127.0.0.1' }, (answer) => {
					answer.resume();
					answer.on('end', () => {
						burn(burnMs);
						resolve();
					});
				})
				.on('error', reject);
		});
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (!stopped()) await one();
		}),
	);
	agent.destroy();
}

async function run(port: number, inPlace: boolean): Promise<{ rate: number; heldMsPerS: number }> {
	let held = 0;
	const pacer = new Pacer(sleep, {
		requestsPerSecond: RATE,
		now: preciseNow,
		waitBriefly: inPlace
			? (ms) => {
					const before = preciseNow();
					waitInPlace(ms);
					held += preciseNow() - before;
				}
			: undefined,
	});
	let stop = false;
	const load = sideLoad(port, () => stop);
	await sleep(200);
	const first = preciseNow();
	let starts = 0;
	while (preciseNow() - first < RUN_MS) {
		pacer.finished(await pacer.wait(), 'answered');
		starts += 1;
	}
	const seconds = (preciseNow() - first) / 1000;
	stop = true;
	await load;
	return { rate: starts / seconds, heldMsPerS: held / seconds };
}

async function main(): Promise<void> {
	const server = http.createServer((_request, response) => {
		setTimeout(() => response.end('ok'), 20);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const repeats = repeatsFromEnv(5);
	const results: Record<string, Array<{ rate: number; heldMsPerS: number }>> = {
		timers: [],
		inPlace: [],
	};
	// Alternated, so a change of the machine's load falls on both.
	for (let index = 0; index < repeats; index++) {
		results.timers.push(await run(port, false));
		results.inPlace.push(await run(port, true));
	}
	server.close();
	console.log(
		`Max Requests per Second ${RATE}, side load ${IN_FLIGHT} in flight at 20 ms, ${burnMs} ms of CPU per answer, ${repeats} runs of ${RUN_MS / 1000} s each:`,
	);
	const rates = {
		timers: spread(results.timers.map((result) => result.rate)),
		inPlace: spread(results.inPlace.map((result) => result.rate)),
	};
	for (const [name, runs] of Object.entries(results)) {
		const held = spread(runs.map((result) => result.heldMsPerS));
		console.log(
			`  ${name === 'timers' ? 'timers alone       ' : 'last fraction held '}: ${showSpread(rates[name as keyof typeof rates], 1)} starts a second; process held ${showSpread(held, 1)} ms a second`,
		);
	}
	// Overlapping ranges are reported as no measurable difference, never as a win.
	console.log(
		`  timers alone against the wait in place: ${compare(rates.timers, rates.inPlace, 'starts a second', 1)}`,
	);
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
