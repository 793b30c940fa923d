/**
 * How a campaign's workers run, as docs/campaigns.md recommends: one batch at a time per worker (a
 * worker that dies leaves at most one batch unfinished) and the memory limits measured for 100,000
 * recipients. One place for the bench, the queue suite and `npm run queue:up -- --campaign`.
 */
export const CAMPAIGN_WORKER_CONCURRENCY = 1;

export const CAMPAIGN_WORKER_ENV: Readonly<Record<string, string>> = {
	NODE_OPTIONS: '--max-old-space-size=256',
	N8N_RUNNERS_MAX_OLD_SPACE_SIZE: '128',
};
