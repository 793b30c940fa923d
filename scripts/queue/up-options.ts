/**
 * The flags of npm run queue:up. `--campaign` starts the workers the way docs/campaigns.md sets
 * them up (two batches at a time, the measured memory limits); `--workers` and `--concurrency` set
 * each by hand. Unknown flags are refused by name rather than ignored.
 */
import {
	CAMPAIGN_MAIN_ENV,
	CAMPAIGN_WORKER_CONCURRENCY,
	CAMPAIGN_WORKER_ENV,
} from '../../test/queue/cluster/campaign-workers';

export interface UpOptions {
	workers: number;
	workerConcurrency: number;
	workerEnv: Record<string, string>;
	mainEnv: Record<string, string>;
	campaign: boolean;
}

const USAGE =
	'usage: npm run queue:up -- [--campaign] [--workers N (1-8, default 2)] [--concurrency N (1-50)]';

function whole(flag: string, raw: string | undefined, max: number): number {
	const value = Number(raw);
	if (raw === undefined || !Number.isInteger(value) || value < 1 || value > max) {
		throw new Error(
			`${flag} needs a whole number from 1 to ${max}, got ${raw ?? 'nothing'}\n${USAGE}`,
		);
	}
	return value;
}

export function parseUpOptions(argv: string[]): UpOptions {
	let workers = 2;
	let concurrency: number | undefined;
	let campaign = false;
	for (let index = 0; index < argv.length; index++) {
		const flag = argv[index];
		if (flag === '--campaign') campaign = true;
		else if (flag === '--workers') workers = whole(flag, argv[++index], 8);
		else if (flag === '--concurrency') concurrency = whole(flag, argv[++index], 50);
		else throw new Error(`unknown option ${flag}\n${USAGE}`);
	}
	return {
		workers,
		// n8n's own default (10) unless the campaign set-up or the flag says otherwise.
		workerConcurrency: concurrency ?? (campaign ? CAMPAIGN_WORKER_CONCURRENCY : 10),
		workerEnv: campaign ? { ...CAMPAIGN_WORKER_ENV } : {},
		mainEnv: campaign ? { ...CAMPAIGN_MAIN_ENV } : {},
		campaign,
	};
}
