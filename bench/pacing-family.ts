/**
 * `npm run bench -- pacingFamily`: the pacer against limiters the sandbox does not run by default, on
 * the virtual clock (test/client/limiter-simulation.ts: the client's real pacer and retries). The
 * benchmarks and the queue suite use three settings (100/s; a token bucket's burst of 20); real
 * gateways differ: nginx's `limit_req` is a token bucket whose burst is often 5 or none (a burst of
 * 1 here: any request sooner than 1 / rate after the last is refused), others let a whole second's
 * worth through at once. Each limiter runs 10 s worth of sends at its rate, at 20 and 100 ms of
 * latency, 10 and 50 in parallel, 3 phases of a window, timers on time and 1 ms late, each up to
 * TIMER_JITTER_MS more at random (24 runs), once at the node's defaults and once with Max Requests
 * per Second set 5 % below the limit, as the README advises; then both again with requests reaching
 * the gateway as unevenly as from n8n (N8N_ARRIVAL_JITTER), which a gateway allowing no burst
 * refuses even under that setting; and with the setting 50 % above the limit (a user who believes
 * it higher than it is), where the adaptive rate must still find the limit.
 *
 * Prints, per limiter and setting, the time over the ideal (the sends at the limit, or at Items in
 * Parallel per round trip when that is slower): mean and slowest, runs over 1.2 x, and the 429s per
 * run. Throws if any item failed or was sent twice: that must hold for every limiter, fast or slow.
 */
import {
	type ArrivalJitter,
	N8N_ARRIVAL_JITTER,
	simulate,
} from '../test/client/limiter-simulation';
import type { LimiterSettings } from '../test/sandbox/limiters';
import { meanOf } from './measure';
import { KNOWN_LIMIT_SHARE } from './workflows';

const GOAL = 1.2;
const SECONDS_OF_SENDS = 10;
/** Timers in n8n are late by a different amount each time: up to this much on top. */
const TIMER_JITTER_MS = 1;

const FAMILY: Array<[string, LimiterSettings]> = [20, 100].flatMap((perSecond) => [
	[`sliding ${perSecond}/s`, { model: 'sliding', perSecond }],
	[`fixed ${perSecond}/s`, { model: 'fixed', perSecond }],
	...[1, 5, 20, 100].map((burst): [string, LimiterSettings] => [
		`token bucket ${perSecond}/s, burst ${burst}`,
		{ model: 'tokenBucket', perSecond, burst },
	]),
]);

interface Figures {
	ratios: number[];
	refused: number;
}

async function runFamilyMember(
	limiter: LimiterSettings,
	requestsPerSecond: number,
	arrivalJitter?: ArrivalJitter,
): Promise<Figures> {
	const perSecond = limiter.perSecond ?? 1;
	const sends = perSecond * SECONDS_OF_SENDS;
	const figures: Figures = { ratios: [], refused: 0 };
	for (const latencyMs of [20, 100]) {
		for (const parallel of [10, 50]) {
			for (const startAt of [0, 300, 700]) {
				for (const timerLateMs of [0, 1]) {
					const result = await simulate({
						limiter,
						sends,
						parallel,
						latencyMs,
						startAt,
						timerLateMs,
						timerJitterMs: TIMER_JITTER_MS,
						requestsPerSecond,
						arrivalJitter,
					});
					if (result.failed > 0 || result.doubles > 0) {
						throw new Error(
							`${JSON.stringify(limiter)}: ${result.failed} failed, ${result.doubles} sent twice`,
						);
					}
					const idealMs = Math.max(sends / perSecond, (sends * latencyMs) / parallel / 1000) * 1000;
					figures.ratios.push(result.elapsedMs / idealMs);
					figures.refused += result.refused;
				}
			}
		}
	}
	return figures;
}

function describe(figures: Figures): string {
	const { ratios } = figures;
	const mean = meanOf(ratios);
	const slowest = Math.max(...ratios);
	const missed = ratios.filter((ratio) => ratio > GOAL).length;
	return (
		`mean ${mean.toFixed(3)} x, slowest ${slowest.toFixed(2)} x, over ${GOAL} x in ${missed} of ` +
		`${ratios.length}, ${Math.round(figures.refused / ratios.length)} x 429 per run`
	);
}

async function main(): Promise<void> {
	console.log(
		`Limiters beyond the sandbox's defaults, ${SECONDS_OF_SENDS} s of sends at each limit, 24 runs each (time / ideal)`,
	);
	for (const [label, limiter] of FAMILY) {
		const limit = limiter.perSecond ?? 0;
		const capAt = KNOWN_LIMIT_SHARE * limit;
		const lines: Array<[string, Figures]> = [
			['defaults', await runFamilyMember(limiter, 0)],
			['Max Requests per Second 5 % below', await runFamilyMember(limiter, capAt)],
			[
				"defaults, arrivals as uneven as n8n's",
				await runFamilyMember(limiter, 0, N8N_ARRIVAL_JITTER),
			],
			[
				"5 % below, arrivals as uneven as n8n's",
				await runFamilyMember(limiter, capAt, N8N_ARRIVAL_JITTER),
			],
			// A user who believes the limit higher than it is: the adaptive rate must still find it.
			['Max Requests per Second 50 % above', await runFamilyMember(limiter, 1.5 * limit)],
		];
		lines.forEach(([setting, figures], index) =>
			console.log(`${(index === 0 ? label : '').padEnd(27)} ${setting}: ${describe(figures)}`),
		);
	}
}

/** Run by `npm run bench -- <case>` (bench/run.ts). */
export { main as run };
