// Batches Sharing the Limit (the batch workflows): each batch sends at Max Requests per Second (the
// account's limit) divided by the batches of its campaign sending at that moment on every worker,
// counted from the record; a batch a stopped worker left "sending" stops counting after 1.5 x the
// time its requests take at its share, plus 3 s. Run as n8n's Code node runs it.
import { BATCHES, byName, parseExample, runBatchesSharing } from './campaign-code';

const phones = (count: number) =>
	Array.from({ length: count }, (_, index) => `+2547${String(index).padStart(8, '0')}`).join(',');
const row = (
	batch: number,
	secondsAgo: number,
	recipients = 1000,
	status = 'sending (execution 7)',
) => ({
	campaign: 'spring',
	batch: String(batch),
	status,
	recipients: phones(recipients),
	updatedAt: new Date(Date.now() - secondsAgo * 1000).toISOString(),
});

describe.each(BATCHES)('%s: Batches Sharing the Limit', (file) => {
	it('sends at the account limit shared by the batches sending: the setting is 495 (1 % below 500 a second), the share read from the record', () => {
		const send = byName(parseExample(file), 'Send Campaign Message');
		const options = send.parameters.requestOptions as Record<string, unknown>;
		expect(options.requestsPerSecond).toBe(495);
		expect(options.sharedBy).toBe(
			"={{ $('Batches Sharing the Limit').first().json.batchesSending }}",
		);
	});

	it('counts this batch alone, and every batch taken just now', () => {
		expect(runBatchesSharing(file, [row(1, 0)]).batchesSending).toBe(1);
		expect(runBatchesSharing(file, [row(1, 0), row(2, 1), row(3, 0.5)]).batchesSending).toBe(3);
	});

	it('reads only rows that are sending (done, queued and the claim do not share the limit)', () => {
		const rows = [
			row(1, 0),
			row(2, 0, 1000, 'done'),
			row(3, 0, 1000, 'queued'),
			row(4, 0, 0, 'free'),
		];
		expect(runBatchesSharing(file, rows).batchesSending).toBe(1);
	});

	it('no longer counts a batch left sending by a worker that stopped, once its time is well past', () => {
		// Two sending: 1,000 template sends at 245 a second take 4.1 s (1.5 x + 3 s: 9.1 s); 1,000 SMS
		// are 10 requests (3.03 s).
		const expiry = file.includes('sms') ? 3.03 : 9.1;
		expect(runBatchesSharing(file, [row(1, 0), row(2, expiry - 0.5)]).batchesSending).toBe(2);
		expect(runBatchesSharing(file, [row(1, 0), row(2, expiry + 0.5)]).batchesSending).toBe(1);
		// A batch left sending by a run of yesterday never counts.
		expect(runBatchesSharing(file, [row(1, 0), row(2, 86_400)]).batchesSending).toBe(1);
	});

	it('a record that cannot be read: this batch alone, marked (the pacer then meets the limit by its 429s)', () => {
		expect(runBatchesSharing(file, [], true)).toEqual({ batchesSending: 1, readFailed: true });
	});
});
