import { startSandbox, TEMPLATES, type Sandbox } from './index';
import { body, buttons, send, sendPayload, uploadMedia, type Component } from './test-helpers';

let sb: Sandbox;
let promoImage: string;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.stop());
beforeEach(async () => {
	sb.reset();
	promoImage = (await uploadMedia(sb, 'image/png', 'promo.png')).media_id;
});

const track = (...fields: [string, string][]) =>
	sendPayload(TEMPLATES.urlButton.id, [body(['1', 'P-1']), buttons(...fields)]);
const feedback = (...fields: [string, string][]) =>
	sendPayload(TEMPLATES.quickReplies.id, [
		body(['1', 'Ann']),
		...(fields.length ? [buttons(...fields)] : []),
	]);
const promo = (...fields: [string, string][]) =>
	sendPayload(TEMPLATES.mixedButtons.id, [body(['1', 'Ann'], ['2', '20%']), buttons(...fields)], {
		media_id: promoImage,
	});

describe('BUTTONS: accepted names (rule 4 separators and case)', () => {
	it.each([
		'1',
		'url:0',
		'url_0',
		'url-0',
		'URL:0',
		'Url_0',
		'button:0',
		'button_0',
		'button-0',
		'BUTTON:0',
	])('URL button of tpl_track_parcel via %s', async (name) => {
		const res = await send(sb, track([name, 'P-1']));
		expect(res.status).toBe(200);
	});

	it.each([
		'quick_reply:1',
		'quick_reply_1',
		'quick_reply-1',
		'quick-reply:1',
		'quick-reply_1',
		'quick-reply-1',
		'QUICK_REPLY:1',
		'Quick-Reply-1',
		'button:1',
		'button_1',
	])('quick reply payload via %s', async (name) => {
		const res = await send(sb, feedback([name, 'NO_PAYLOAD']));
		expect(res.status).toBe(200);
	});

	it('quick reply payloads are optional', async () => {
		expect((await send(sb, feedback())).status).toBe(200);
		expect((await send(sb, feedback(['quick_reply:0', 'YES']))).status).toBe(200);
	});

	it('authentication template takes its code as BODY 1 and BUTTONS 1 (rule 11)', async () => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.authCode.id, [body(['1', '483920']), buttons(['1', '483920'])]),
		);
		expect(res.status).toBe(200);
		expect(
			(sb.state.sentMessages[0].componentList as { components: Component[] }).components,
		).toHaveLength(2);
	});

	it('mixed template: quick reply 0 and URL 1 by index or placeholder', async () => {
		expect((await send(sb, promo(['url:1', 'SAVE20']))).status).toBe(200);
		expect((await send(sb, promo(['1', 'SAVE20'], ['quick_reply:0', 'STOP']))).status).toBe(200);
		expect((await send(sb, promo(['button-1', 'SAVE20'], ['button_0', 'STOP']))).status).toBe(200);
	});
});

describe('BUTTONS: refused names and values', () => {
	it.each([
		'quickreply:1',
		'quick:reply:1',
		'quick reply:1',
		'btn:0',
		'url:',
		'url:x',
		'url0',
		':0',
		'0',
		' url:0',
		'url:0 ',
		'url::0',
		'url:-1',
		'copy_code:0',
	])('malformed name %j is refused naming it and the accepted forms', async (name) => {
		const res = await send(sb, track([name, 'P-1'], ['1', 'P-1']));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_button');
		expect(res.body.error_message).toContain(`'${name}'`);
		expect(res.body.error_message).toContain('quick_reply:<n>');
	});

	it('index out of range', async () => {
		const res = await send(sb, track(['url:1', 'P-1']));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_button');
		expect(res.body.error_message).toContain('has 1 button');
	});

	it('url:<n> must target a URL button, quick_reply:<n> a QUICK_REPLY button', async () => {
		const url = await send(sb, feedback(['url:0', 'x']));
		expect(url.status).toBe(400);
		expect(url.body.error_message).toContain('not a URL button');
		const qr = await send(sb, track(['quick_reply:0', 'x']));
		expect(qr.status).toBe(400);
		expect(qr.body.error_message).toContain('not a QUICK_REPLY button');
	});

	it('a placeholder number must exist in a button url', async () => {
		const res = await send(sb, track(['2', 'x'], ['1', 'P-1']));
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('{{2}}');
		const onQuickReplies = await send(sb, feedback(['1', 'x']));
		expect(onQuickReplies.status).toBe(400);
	});

	it('a PHONE_NUMBER button takes no value (rule 6)', async () => {
		for (const name of ['button:0', 'button_0']) {
			const res = await send(
				sb,
				sendPayload(TEMPLATES.phoneButton.id, [body(['1', 'x']), buttons([name, '+254799999999'])]),
			);
			expect(res.status).toBe(400);
			expect(res.body.error_code).toBe('invalid_button');
			expect(res.body.error_message).toContain('PHONE_NUMBER');
		}
		const mixed = await send(sb, promo(['url:1', 'A'], ['button:2', '+254799999999']));
		expect(mixed.status).toBe(400);
		expect(mixed.body.error_message).toContain('cannot be changed');
	});

	it('a FLOW button takes no value (rule 7)', async () => {
		const res = await send(sb, sendPayload(TEMPLATES.flow.id, [buttons(['button:0', 'token'])]));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('invalid_button');
		expect(res.body.error_message).toContain('FLOW');
	});

	it('a URL placeholder must be given (rule 10)', async () => {
		const res = await send(sb, sendPayload(TEMPLATES.urlButton.id, [body(['1', 'P-1'])]));
		expect(res.status).toBe(400);
		expect(res.body.error_code).toBe('missing_variable');
		expect(res.body.error_message).toContain("'url:0'");
		const otp = await send(sb, sendPayload(TEMPLATES.authCode.id, [body(['1', '1234'])]));
		expect(otp.status).toBe(400);
		expect(otp.body.error_code).toBe('missing_variable');
	});

	it('only the placeholder value, not the full URL (rule 3)', async () => {
		const res = await send(sb, track(['url:0', 'https://shop.example.com/track/P-1']));
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('full URL');
	});

	it('one value per button', async () => {
		const res = await send(sb, track(['1', 'A'], ['url:0', 'B']));
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('both target button 0');
	});

	it('BUTTONS values on a template without buttons', async () => {
		const res = await send(
			sb,
			sendPayload(TEMPLATES.bodyOnly.id, [
				body(['1', 'a'], ['2', 'b']),
				buttons(['button:0', 'x']),
			]),
		);
		expect(res.status).toBe(400);
		expect(res.body.error_message).toContain('has no buttons');
	});
});
