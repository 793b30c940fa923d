/**
 * How a campaign's workers run, as docs/campaigns.md recommends: two batches at a time per worker
 * (one sends while the next is taken and checked, and waits its turn: decision 0015; a worker that
 * dies leaves at most these two unfinished) and the memory limits measured for 100,000 recipients.
 * One place for the bench, the queue suite and `npm run queue:up -- --campaign`.
 */
export const CAMPAIGN_WORKER_CONCURRENCY = 2;

/**
 * Room in n8n's data tables, on every process that writes them (the main and the workers): n8n
 * refuses every insert and update once all data tables together pass N8N_DATA_TABLES_MAX_SIZE_BYTES
 * (50 MB by default), and counts each table's main file only, which on Postgres does not shrink when
 * rows are deleted. smsleopard_deliveries takes one row per message, about 15 MB of that count per
 * 100,000 recipients (149 bytes a row, measured in the campaign bench): under the default, a fourth
 * campaign of 100,000 failed (`npm run bench -- fiveInARow`, 2026-11-30). 1 GB holds about 60.
 */
export const CAMPAIGN_DATA_TABLES_ENV: Readonly<Record<string, string>> = {
	N8N_DATA_TABLES_MAX_SIZE_BYTES: String(1024 ** 3),
};

/**
 * Settings of the main and the workers alike: room in the data tables (above), and no execution read
 * back whole once it ends. n8n 2.8 (N8N_MINIMIZE_EXECUTION_DATA_FETCHING unset) reads every finished
 * job's execution back from the database with all its data, on the worker that ran it and again on
 * the main, only to learn whether it succeeded; n8n 2.41 no longer does (job-processor.js,
 * workflow-runner.js), and 1.123 has no such setting (it is ignored there). The campaign's own
 * execution holds the list and every batch's request (about 13 MB written for 100,000), and reading
 * it back cost the main a heap of that size per campaign (its worker's peak, set by the writing,
 * stayed the same): over five campaigns in a row (`npm run bench -- fiveInARow`, twice, 2026-11-30) the main peaked
 * at 429-474 MB with it, 502-528 without (decision 0020).
 */
export const CAMPAIGN_SHARED_ENV: Readonly<Record<string, string>> = {
	...CAMPAIGN_DATA_TABLES_ENV,
	N8N_MINIMIZE_EXECUTION_DATA_FETCHING: 'true',
};

/**
 * The workers': n8n's heap at 256 MB and its task runner's at 128 (what one execution may hold: a
 * plan of 300,000 fits), and glibc's allocator told to keep blocks over 128 KB (request bodies, the
 * execution n8n writes and reads back) out of its heap and to hold 2 arenas. glibc otherwise raises
 * that threshold itself each time such a block is freed, so the worker that planned kept what
 * planning had allocated for good. The heaps set lower cut little more and fail wider lists.
 *
 * Both processes also get a young generation of 4 MB a half (`--max-semi-space-size=4`) instead of
 * Node.js's 16: a worker sending batches holds it full, 24 MB more per process (the other worker
 * 338-345 MB with it, 394-396 without; the planner 412-439, 451-474). n8n passes the runner no
 * NODE_OPTIONS of its own, only `--max-old-space-size=` followed by N8N_RUNNERS_MAX_OLD_SPACE_SIZE
 * (1.123, 2.8 and 2.41 alike), so the runner's flag rides on that value; the queue suite checks that
 * it reaches the runner's environment.
 */
export const CAMPAIGN_WORKER_ENV: Readonly<Record<string, string>> = {
	NODE_OPTIONS: '--max-old-space-size=256 --max-semi-space-size=4',
	N8N_RUNNERS_MAX_OLD_SPACE_SIZE: '128 --max-semi-space-size=4',
	MALLOC_ARENA_MAX: '2',
	MALLOC_MMAP_THRESHOLD_: '131072',
	...CAMPAIGN_SHARED_ENV,
};

/**
 * The main's, so it stays under 0.6 GB: it answers the webhooks and forms and queues the batches,
 * and runs no campaign execution; without a heap limit n8n lets its heap grow lazily (685 MB with
 * 520 MB at the start of a campaign, BENCH_N=20000; 459 MB with 320 and 96).
 */
export const CAMPAIGN_MAIN_ENV: Readonly<Record<string, string>> = {
	NODE_OPTIONS: '--max-old-space-size=384',
	N8N_RUNNERS_MAX_OLD_SPACE_SIZE: '96',
	...CAMPAIGN_SHARED_ENV,
};
