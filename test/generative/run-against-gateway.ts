/**
 * Runs the node in n8n's real engine against the hostile gateway for one drawn run, under a guard
 * that gives up at the run's bound (a hung run is released by dropping the gateway's sockets), and
 * collects what the invariants need: the run's result, the gateway's record, the time it took and
 * the log lines written meanwhile.
 */
import { existsSync, readFileSync } from 'fs';
import path from 'path';
import type { INodeParameters } from 'n8n-workflow';
import { SmsLeopardApi } from '../../credentials/SmsLeopardApi.credentials';
import { SmsLeopard } from '../../nodes/SmsLeopard/SmsLeopard.node';
import { type RunNodeResult, runNode } from '../harness';
import { KEPT_LISTINGS } from '../../nodes/SmsLeopard/helpers/kept-listings';
import { SANDBOX_API_KEY, SANDBOX_API_SECRET } from '../sandbox/seed';
import { type Gateway, refusedPort, startGateway, tlsBreaker } from './gateway';
import type { RunRecord } from './invariants';
import {
	DELIVERY_REPORT_SECRET,
	type RunDraw,
	type Scenario,
	boundMs,
	scriptFor,
} from './scenarios';

export interface Stage {
	gateway: Gateway;
	refused: number;
	tlsClosed: Awaited<ReturnType<typeof tlsBreaker>>;
	tlsGarbage: Awaited<ReturnType<typeof tlsBreaker>>;
	close(): Promise<void>;
}

export async function startStage(): Promise<Stage> {
	const gateway = await startGateway();
	const tlsClosed = await tlsBreaker('close');
	const tlsGarbage = await tlsBreaker('garbage');
	return {
		gateway,
		refused: await refusedPort(),
		tlsClosed,
		tlsGarbage,
		close: async () => {
			await gateway.close();
			await tlsClosed.close();
			await tlsGarbage.close();
		},
	};
}

function urlFor(stage: Stage, draw: RunDraw, gatewayUrl: string): string {
	switch (draw.host) {
		case 'refused':
			return `http://127.0.0.1:${stage.refused}`;
		case 'tls-closed':
			return `https://127.0.0.1:${stage.tlsClosed.port}`;
		case 'tls-garbage':
			return `https://127.0.0.1:${stage.tlsGarbage.port}`;
		default:
			return gatewayUrl;
	}
}

/** Lines recorded for the secret scan in this process since `from` (a byte offset). */
function recordedSince(from: number): { lines: string[]; end: number } {
	const dir = process.env.SECRET_SCAN_DIR;
	const file = dir ? path.join(dir, `${process.pid}.jsonl`) : '';
	if (!file || !existsSync(file)) return { lines: [], end: from };
	const data = readFileSync(file);
	return {
		lines: data.subarray(from).toString('utf8').split('\n').filter(Boolean),
		end: data.length,
	};
}

export interface RunSetup {
	scenario: Scenario;
	draw: RunDraw;
	mode: 'continue' | 'stop';
	/** Test-only: parameters laid over the scenario's (to prove a check catches a slow node). */
	overrides?: Record<string, unknown>;
}

export async function runAgainstGateway(stage: Stage, setup: RunSetup): Promise<RunRecord> {
	const { scenario, draw, mode } = setup;
	const url = urlFor(stage, draw, stage.gateway.begin(scriptFor(scenario, draw)));
	const items = await scenario.items(draw);
	const bound = boundMs(scenario, draw);
	const before = recordedSince(0).end;
	// Each run's gateway scripts its own answers, listings included: nothing kept from the last run.
	KEPT_LISTINGS.forgetAll();
	const started = performance.now();
	const running = runNode({
		nodeType: new SmsLeopard(),
		credentialTypes: [new SmsLeopardApi()],
		credentials: {
			smsLeopardApi: {
				apiKey: SANDBOX_API_KEY,
				apiSecret: SANDBOX_API_SECRET,
				chatUrl: url,
				contactsUrl: url,
				channel: 'whatsapp',
			},
		},
		parameters: { ...scenario.parameters(draw), ...setup.overrides } as INodeParameters,
		items,
		continueOnFail: mode === 'continue',
		onError: mode === 'continue' && draw.errorOutput ? 'continueErrorOutput' : undefined,
	}).then(
		(result) => ({ result }),
		(error: unknown) => ({ thrown: error }),
	);
	let timer: NodeJS.Timeout | undefined;
	const guard = new Promise<'timeout'>((resolve) => {
		timer = setTimeout(() => resolve('timeout'), bound);
	});
	const first = await Promise.race([running, guard]);
	clearTimeout(timer);
	const elapsedMs = performance.now() - started;
	let result: RunNodeResult | undefined;
	let crashed: string | undefined;
	if (first === 'timeout') {
		// Release the hung run so the next one starts clean; what it ends with is not judged.
		stage.gateway.dropConnections();
		let release: NodeJS.Timeout | undefined;
		await Promise.race([
			running,
			new Promise((resolve) => {
				release = setTimeout(resolve, 5_000);
			}),
		]);
		clearTimeout(release);
	} else if ('result' in first) {
		result = first.result;
	} else {
		crashed = String((first.thrown as Error)?.message ?? first.thrown).slice(0, 300);
	}
	const exchanges = [...stage.gateway.exchanges];
	const { lines } = recordedSince(before);
	return {
		result,
		mode,
		itemCount: draw.itemCount,
		successId: scenario.successId,
		exchanges,
		elapsedMs,
		boundMs: bound,
		timedOut: first === 'timeout',
		crashed,
		logLines: lines,
		extraSecrets: [DELIVERY_REPORT_SECRET],
	};
}
