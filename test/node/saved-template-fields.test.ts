/**
 * Workflows saved by every earlier version of Send Template keep sending, unchanged, while their
 * template and its texts are unchanged (test/fixtures/template-fields/, one file per shape of the
 * field builder): the stale-fields check reads what the fields mean, not their labels or notes.
 * What is wrong in them for another reason is refused for that reason.
 */
import { describeTemplate } from '../../nodes/SmsLeopard/client/whatsapp/templates';
import { templateFields } from '../../nodes/SmsLeopard/actions/message/template-fields';
import { shapeHash } from '../../scripts/template-field-shapes';
import { SHAPE_TEMPLATES } from '../fixtures/template-fields/templates';
import {
	SAVED_MEDIA,
	SAVED_SHAPES,
	SENT_BODY,
	SENT_FILE_NAME,
	SHAPE_NAMES,
	savedNode,
	savedVersion,
} from '../fixtures/template-fields/saved-nodes';
import { binaryItem } from '../harness';
import { changingRequests, jsonItems, useNodeEnv } from './support';

const env = useNodeEnv();

beforeEach(() => env.sandbox.state.media.push(...SAVED_MEDIA));

const customer = { phone: '+254700600001', name: 'Amina' };

it("today's field shape is the newest fixture (a change of labels or field lists adds its fixture)", () => {
	const today = shapeHash(
		Object.fromEntries(
			SHAPE_TEMPLATES.map((template) => [
				String(template.name),
				templateFields(describeTemplate(template)).map((field) => ({ ...field, removed: false })),
			]),
		),
	);
	expect(SAVED_SHAPES.length).toBeGreaterThanOrEqual(7);
	expect(SAVED_SHAPES.at(-1)?.shape).toBe(today);
});

describe.each(SAVED_SHAPES.map((saved) => [saved.file, saved] as const))(
	'saved by the version of %s',
	(_file, saved) => {
		const typeVersion = savedVersion(saved);

		it.each(SHAPE_NAMES)('%s sends as it did, its document file name included', async (name) => {
			const { items, error } = await env.run(savedNode(saved, name), jsonItems(customer), {
				typeVersion,
			});
			expect(error?.message).toBeUndefined();
			expect(items[0].json).toMatchObject({ outcome: 'sent', bodyText: SENT_BODY[name] });
			expect(env.sends()).toHaveLength(1);
			expect(env.sends()[0].file_name).toBe(SENT_FILE_NAME[name]);
		});

		it('a value for a phone number button is refused for that reason', async () => {
			const node = savedNode(saved, 'call_us', { button_0_url: 'A-1001' });
			const { error } = await env.run(node, jsonItems(customer), { typeVersion });
			expect(error?.message).toMatch(/phone number button/i);
			expect(error?.message).not.toContain('were mapped for');
			expect(changingRequests(env)).toEqual([]);
		});

		it('a CRLF in a header value is refused for that reason', async () => {
			const node = savedNode(saved, 'welcome', { header_1: '={{ "Amina\\r\\nBcc: x" }}' });
			const { error } = await env.run(node, jsonItems(customer), { typeVersion });
			expect(error?.message).toMatch(/line break|new line|\\r|CR/i);
			expect(error?.message).not.toContain('were mapped for');
			expect(changingRequests(env)).toEqual([]);
		});

		it.each([
			['a PDF for an image header', 'catalogue.pdf', 'application/pdf', 2_000, /PDF|image/i],
			['a 6 MB image', 'banner.png', 'image/png', 6 * 1024 * 1024, /5 MB|too large|larger/i],
		])('%s is refused for that reason', async (_what, fileName, mimeType, size, reason) => {
			const node = {
				...savedNode(saved, 'promo'),
				headerMedia: 'binary',
				binaryPropertyName: 'banner',
			};
			const item = await binaryItem(customer, 'banner', Buffer.alloc(size, 1), fileName, mimeType);
			const { error } = await env.run(node, [item], { typeVersion });
			expect(error?.message).toMatch(reason);
			expect(error?.message).not.toContain('were mapped for');
			expect(changingRequests(env)).toEqual([]);
		});
	},
);
