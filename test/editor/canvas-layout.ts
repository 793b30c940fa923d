/**
 * Where n8n's editor draws a workflow's nodes and sticky notes, read from the page: the boxes as
 * the marketer sees them, to find a node drawn on a note (it hides the note's words) or on another
 * node. test/examples/canvas-layout.test.ts checks the files' positions; this checks the drawing.
 */
import type { Page } from 'playwright-core';

import { type Box, overlapping } from '../examples/canvas-boxes';

export interface CanvasLayout {
	notes: Box[];
	nodes: Box[];
}

/** The few DOM calls used in the page (the project's types do not include the DOM). */
interface PageElement {
	getAttribute(name: string): string | null;
	querySelector(selector: string): PageElement | null;
	querySelectorAll(selector: string): ArrayLike<PageElement>;
	getBoundingClientRect(): { left: number; top: number; right: number; bottom: number };
}

/**
 * Each drawn node and note by its id (Vue Flow's `data-id`, the workflow's node id): n8n 2.8 draws a
 * note as `sticky`, later versions as `canvas-sticky-note-node`.
 */
export async function canvasLayout(page: Page): Promise<CanvasLayout> {
	return await page.locator('#app').evaluate((root) => {
		const app = root as unknown as PageElement;
		const boxOf = (name: string, element: PageElement) => {
			const rect = element.getBoundingClientRect();
			return { name, left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
		};
		const layout: CanvasLayout = { notes: [], nodes: [] };
		for (const drawn of Array.from(app.querySelectorAll('.vue-flow__node'))) {
			const id = drawn.getAttribute('data-id') ?? '';
			const note = drawn.querySelector(
				'[data-test-id="sticky"], [data-test-id="canvas-sticky-note-node"]',
			);
			// A node's own box, without its name drawn under it.
			const body = drawn.querySelector(
				'[data-test-id="canvas-default-node"], [data-test-id="canvas-trigger-node"]',
			);
			if (note) layout.notes.push(boxOf(id, note));
			else layout.nodes.push(boxOf(id, body ?? drawn));
		}
		return layout;
	});
}

/** Each pair drawn one on the other, by name: [note, node], [node, node] and [note, note]. */
export function drawnOnEachOther({ notes, nodes }: CanvasLayout): string[][] {
	return [...overlapping(notes, nodes), ...overlapping(nodes, nodes), ...overlapping(notes, notes)];
}
