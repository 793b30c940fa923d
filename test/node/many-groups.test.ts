/**
 * Group > Get Many with Return All over 200,000 groups, in n8n's real engine: every group comes
 * out once, with no recursion or argument-count limit on the way (around 125,000 output items
 * overflowed the stack before: they were spread into one push call). A local server answers pages
 * of 10,000 groups (more than the node asks for, as a server may) so the test needs 20 requests.
 */
import { startRecordingServer } from '../support/recording-server';
import { type NodeEnv, jsonItems, startNodeEnv } from './support';

const PAGES = 20;
const PER_PAGE = 10_000;

let env: NodeEnv;
beforeAll(async () => {
	env = await startNodeEnv();
});
afterAll(async () => await env.stop());

it('Return All outputs 200,000 groups, each once and in order', async () => {
	const server = await startRecordingServer((request, response) => {
		const page = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
		const groups = Array.from({ length: PER_PAGE }, (_, i) => ({
			id: (page - 1) * PER_PAGE + i + 1,
			name: `Group ${(page - 1) * PER_PAGE + i + 1}`,
		}));
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				groups,
				pagination: {
					count: PAGES * PER_PAGE,
					num_pages: PAGES,
					page,
					per: PER_PAGE,
					next_page: page < PAGES ? page + 1 : null,
				},
			}),
		);
	});
	try {
		const { items, error } = await env.run(
			{ resource: 'group', operation: 'getAll', returnAll: true },
			jsonItems({}),
			{ contactsUrl: server.url },
		);
		expect(error).toBeUndefined();
		expect(server.requests).toHaveLength(PAGES);
		expect(items).toHaveLength(PAGES * PER_PAGE);
		items.forEach((item, index) => {
			if (item.json.id !== index + 1) throw new Error(`item ${index} is group ${item.json.id}`);
		});
	} finally {
		await server.stop();
	}
}, 60_000);
