/**
 * Where a queue-mode run lost its time: sends the sandbox accepted each second, per worker, and the
 * 429s. The total alone (printed by the "10 executions" tests) cannot tell a slow opening from one
 * worker left alone at its share at the end; this line can, from CI's log, without a rerun.
 */
export interface SentMessage {
	destination: string;
	at: number;
}

export interface RefusedRequest {
	status: number;
	receivedAt: number;
}

/**
 * `workerOf` names the worker that sent to a destination; `refused` holds the sandbox's requests,
 * of which the 429s are counted. One line: "0s 21/15 (11 x 429), 1s 21/11, ...".
 */
export function perWorkerSeconds(
	sent: SentMessage[],
	refused: RefusedRequest[],
	workers: string[],
	workerOf: (destination: string) => string | undefined,
): string {
	if (sent.length === 0) return 'no sends';
	const first = Math.min(...sent.map((message) => message.at));
	const seconds: Array<{ perWorker: number[]; refused: number }> = [];
	const at = (time: number) => {
		const second = Math.max(0, Math.floor((time - first) / 1000));
		seconds[second] ??= { perWorker: workers.map(() => 0), refused: 0 };
		return seconds[second];
	};
	for (const message of sent) {
		const worker = workers.indexOf(workerOf(message.destination) ?? '');
		if (worker >= 0) at(message.at).perWorker[worker] += 1;
	}
	for (const request of refused) if (request.status === 429) at(request.receivedAt).refused += 1;
	// Array.from visits the seconds nothing happened in (a quota's wait), which map skips.
	return Array.from({ length: seconds.length }, (_, index) => {
		const second = seconds[index] as (typeof seconds)[number] | undefined;
		const counts = (second?.perWorker ?? workers.map(() => 0)).join('/');
		const refusals = second?.refused ? ` (${second.refused} x 429)` : '';
		return `${index}s ${counts}${refusals}`;
	}).join(', ');
}
