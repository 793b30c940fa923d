/**
 * Captions drawn into the page itself (so the screencast shows them): a box at the bottom of the
 * screen saying which step this is and what is really happening. Clicks go through it
 * (pointer-events: none). A full page load removes it, so it is drawn again after each one.
 */
import type { Page } from 'playwright-core';

const CAPTION_ID = 'smsleopard-demo-caption';

export interface Captions {
	show(title: string, detail?: string): Promise<void>;
}

async function draw(page: Page, title: string, detail: string): Promise<void> {
	await page.locator('body').evaluate(
		(body, { id, title, detail }) => {
			const document = body.ownerDocument;
			let box = document.getElementById(id);
			if (!box) {
				box = document.createElement('div');
				box.id = id;
				Object.assign(box.style, {
					position: 'fixed',
					left: '50%',
					bottom: '18px',
					transform: 'translateX(-50%)',
					maxWidth: '72%',
					padding: '10px 18px',
					borderRadius: '8px',
					background: 'rgba(20, 20, 28, 0.88)',
					color: '#fff',
					font: '16px/1.4 system-ui, sans-serif',
					zIndex: '2147483647',
					pointerEvents: 'none',
					boxShadow: '0 4px 16px rgba(0,0,0,0.3)',
				});
				body.appendChild(box);
			}
			box.replaceChildren();
			const heading = document.createElement('div');
			heading.textContent = title;
			heading.style.fontWeight = '600';
			box.appendChild(heading);
			if (detail) {
				const more = document.createElement('div');
				more.textContent = detail;
				more.style.opacity = '0.85';
				more.style.fontSize = '14px';
				box.appendChild(more);
			}
		},
		{ id: CAPTION_ID, title, detail },
	);
}

export function captions(page: Page): Captions {
	let current: { title: string; detail: string } | undefined;
	page.on('load', () => {
		if (current) void draw(page, current.title, current.detail).catch(() => undefined);
	});
	return {
		show: async (title, detail = '') => {
			current = { title, detail };
			await draw(page, title, detail);
		},
	};
}
